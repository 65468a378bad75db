/**
 * `usage.prompt_tokens` counted the way OpenAI documents for its chat models: the tokens of every text,
 * plus a small fixed overhead per message (the chat markup around it) and per image.
 */
import type { MessageView } from './messages.ts';
import { countTokens } from './tokens.ts';

/** Markup around each message (`<|im_start|>`, role separator, `<|im_end|>`). */
export const TOKENS_PER_MESSAGE = 3;
/** A `name` field costs one token beyond its text. */
export const TOKENS_PER_NAME = 1;
/** The assistant reply is primed with `<|im_start|>assistant<|message|>`. */
export const REPLY_PRIMING_TOKENS = 3;
/** One image part, as OpenAI bills a low-detail image. */
export const TOKENS_PER_IMAGE = 85;
/** Markup around the tool list and around each function definition. */
export const TOOLS_OVERHEAD_TOKENS = 12;
export const TOKENS_PER_FUNCTION = 8;

/** The roles' own tokens, counted once: every message has a role, and there are four of them. */
const roleTokens = new Map(['system', 'user', 'assistant', 'tool'].map((role) => [role, countTokens(role)]));

/** The fields of a function definition that reach the model. */
export interface FunctionDefinition {
  name: string;
  description?: string;
  parameters?: unknown;
}

/**
 * The prompt tokens of a conversation and the tools offered with it.
 *
 * @example
 * countPromptTokens([viewMessage({ role: 'user', content: 'Hello world' })], []); // 3 + 1 + 2 + 3 = 9
 */
export function countPromptTokens(views: readonly MessageView[], functions: readonly FunctionDefinition[]): number {
  let total = REPLY_PRIMING_TOKENS;
  for (const view of views) {
    total += TOKENS_PER_MESSAGE + (roleTokens.get(view.role) ?? countTokens(view.role));
    for (const part of view.textParts) total += countTokens(part);
    total += view.imageCount * TOKENS_PER_IMAGE;
    if (view.name !== null) total += TOKENS_PER_NAME + countTokens(view.name);
    for (const call of view.toolCalls) total += TOKENS_PER_MESSAGE + countTokens(call.name) + countTokens(call.arguments);
  }
  if (functions.length > 0) {
    total += TOOLS_OVERHEAD_TOKENS;
    for (const fn of functions) {
      total += TOKENS_PER_FUNCTION + countTokens(fn.name);
      if (fn.description) total += countTokens(fn.description);
      if (fn.parameters !== undefined) total += countTokens(JSON.stringify(fn.parameters));
    }
  }
  return total;
}

