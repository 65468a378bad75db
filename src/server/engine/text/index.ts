/**
 * The deterministic text engine of the reference server: chat answers (text or tool calls), prompt
 * continuations and token counts. The server handles HTTP, ids and streaming; this module only decides
 * what the model says. Answers to requests seen again are memoised (and therefore frozen): from its
 * second time on, the same request gives the very same answer object (memo.ts).
 */
import { answerChat as answerChatFresh, chatSeed, type ChatAnswer, type ChatRequest } from './chat.ts';
import { AnswerMemo } from './memo.ts';
import { completePrompt as completePromptFresh, promptSeed, type PromptAnswer, type PromptRequest } from './prompt.ts';

export type { ChatAnswer, ChatRequest, ChatToolCall } from './chat.ts';
export type { PromptAnswer, PromptRequest } from './prompt.ts';
export { countTokens } from './tokens.ts';
export { TextEngineError } from './errors.ts';

/**
 * Answers a chat completion request: text, or tool calls when `tools` and `toolChoice` call for them.
 * Throws TextEngineError when `toolChoice` cannot be honoured (the server answers 400).
 *
 * @example
 * answerChat({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi!' }] }).content; // 'Hello! How can I help you today? …'
 */
export function answerChat(request: ChatRequest): ChatAnswer {
  const seed = chatSeed(request);
  return chatAnswers.answer({ material: seed.material, digest: seed.text, maxTokens: request.maxTokens ?? null }, () => answerChatFresh(request, seed));
}

const chatAnswers = new AnswerMemo<ChatAnswer>();

/**
 * Continues a single prompt.
 *
 * @example
 * completePrompt({ model: 'gpt-4o-mini', prompt: 'Once upon a time' }).text; // ' and the rest followed …'
 */
export function completePrompt(request: PromptRequest): PromptAnswer {
  const seed = promptSeed(request);
  return promptAnswers.answer({ material: seed.material, digest: seed.text, maxTokens: request.maxTokens ?? null }, () => completePromptFresh(request, seed));
}

const promptAnswers = new AnswerMemo<PromptAnswer>();
