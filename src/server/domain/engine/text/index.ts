/**
 * The deterministic text engine of the reference server: chat answers (text or tool calls), prompt
 * continuations and token counts. The server handles HTTP, ids and streaming; this module only decides
 * what the model says. The same request (and `seed`) always gives the same answer. What it reads and
 * answers are the gateway's own chat types (domain/chat.ts), which every other source of answers shares.
 */
export { answerChat, countChatTokens } from './chat-answer.ts';
export { completePrompt } from './prompt.ts';
export { countTokens } from './tokens.ts';
export { TextEngineError } from './errors.ts';
