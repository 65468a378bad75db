/**
 * The deterministic text engine of the reference server: chat answers (text or tool calls), prompt
 * continuations and token counts. The server handles HTTP, ids and streaming; this module only decides
 * what the model says. The same request (and `seed`) always gives the same answer.
 */
export { answerChat, countChatTokens, type ChatAnswer, type ChatRequest, type ChatToolCall, type ResponseFormat } from './chat.ts';
export { completePrompt, type PromptAnswer, type PromptRequest } from './prompt.ts';
export { countTokens, type TextForm } from './tokens.ts';
export { TextEngineError } from './errors.ts';
