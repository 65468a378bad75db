/**
 * How the checks judge an answer: the usual expectations (a documented success, a client error, a 401), and
 * readers of an answer in any of the protocols (its text, its finish reason, its token counts).
 */
import type { Operation } from '../contract/index.ts';
import { exactStatuses, type Tester } from './check.ts';
import type { Exchange } from './http.ts';
import { checkErrorBody } from './shape.ts';

/**
 * An invalid request's answer: a 4xx error, never a 5xx. Where the status is the description's rule (a vendor's
 * statuses; the gateway's in the full profile) it must be the documented one (`status`, usually 400), and the
 * answer must conform to the description.
 */
export function expectClientError(t: Tester, op: Operation, ex: Exchange, status: number, rule: string): boolean {
  const got = ex.response?.status;
  if (got === undefined) return t.expect(false, `no answer: ${ex.error}`, rule, ex);
  if (!t.expect(got >= 400 && got < 500, `expected a 4xx error, got ${got}`, rule, ex)) return false;
  if (exactStatuses(t.ctx)) {
    if (!t.status(ex, status, rule)) return false;
    return t.shape(op, ex);
  }
  return t.shape(op, ex, { anyClientError: true });
}

/**
 * The message of an error answer: `error` in the gateway's shape, `error.message` in Anthropic's (the
 * Anthropic Messages operations, decision D27); undefined when the body has neither.
 */
export function errorMessage(ex: Exchange): string | undefined {
  const error = (ex.response?.json as { error?: unknown } | undefined)?.error;
  if (typeof error === 'string') return error;
  const nested = (error as { message?: unknown } | undefined)?.message;
  return typeof nested === 'string' ? nested : undefined;
}

/** The error message of an answer equals the fixed text. */
export function expectMessage(t: Tester, ex: Exchange, message: string, rule: string): boolean {
  const got = errorMessage(ex);
  return t.expect(got === message, `expected the message ${JSON.stringify(message)}, got ${JSON.stringify(got)}`, rule, ex);
}

/** A 401 for a missing or invalid key, as documented (the gateway's documents its fixed message). */
export function expectUnauthorized(t: Tester, op: Operation, ex: Exchange, what: string): void {
  if (!t.status(ex, 401, 'authentication', what)) return;
  t.shape(op, ex);
}

/** A success: a 2xx that conforms to the operation's documented response. */
export function expectSuccess(t: Tester, op: Operation, ex: Exchange, rule: string, what = ''): boolean {
  const got = ex.response?.status ?? 0;
  if (!t.expect(got >= 200 && got < 300, `${what ? `${what}: ` : ''}expected a success, got ${got || `no answer (${ex.error})`}${errorOf(ex)}`, rule, ex)) return false;
  return t.shape(op, ex);
}

/** An answer without an operation (unknown route): the description's `Error` as JSON, unless the server is a mock. */
export function expectErrorBody(t: Tester, ex: Exchange): boolean {
  if (!t.ctx.profile.stateful) return true;
  const found = checkErrorBody(t.ctx, ex);
  for (const v of found) t.fail(v.message, v.rule, v.exchange);
  return found.length === 0;
}

/** `a starter key`, `an economy key`. */
export function aKey(tier: string): string {
  return `${/^[aeiou]/.test(tier) ? 'an' : 'a'} ${tier} key`;
}

function errorOf(ex: Exchange): string {
  const error = errorMessage(ex);
  return error === undefined ? '' : ` (${error})`;
}

/** The tokens generated: `usage.completion_tokens`, or Anthropic's `usage.output_tokens`. */
export function completionTokens(ex: Exchange): number | undefined {
  const usage = (ex.response?.json as { usage?: { completion_tokens?: unknown; output_tokens?: unknown } })?.usage;
  const n = usage?.completion_tokens ?? usage?.output_tokens;
  return typeof n === 'number' ? n : undefined;
}

function firstChoice(ex: Exchange): Record<string, unknown> | undefined {
  return (ex.response?.json as { choices?: Array<Record<string, unknown>> })?.choices?.[0];
}

/** Anthropic's answer: a `message` whose content is blocks. */
function messageBlocks(ex: Exchange): Array<{ type?: unknown; text?: unknown }> | undefined {
  const json = ex.response?.json as { type?: unknown; content?: unknown } | undefined;
  return json?.type === 'message' && Array.isArray(json.content) ? json.content : undefined;
}

/**
 * The generated text: a chat message's content, a text completion's text, an Anthropic message's text
 * blocks, or the text of a Responses `response`'s message items.
 */
export function textOf(ex: Exchange): unknown {
  const json = ex.response?.json as { object?: unknown; output?: Array<{ type?: unknown; content?: Array<{ text?: unknown }> }> } | undefined;
  if (json?.object === 'response' && Array.isArray(json.output)) {
    return json.output.filter((item) => item.type === 'message').flatMap((item) => item.content ?? []).map((part) => part.text).join('');
  }
  const blocks = messageBlocks(ex);
  if (blocks) return blocks.flatMap((b) => (b.type === 'text' && typeof b.text === 'string' ? [b.text] : [])).join('');
  const choice = firstChoice(ex);
  return (choice?.message as { content?: unknown } | undefined)?.content ?? choice?.text;
}

/** Why the answer ended: `finish_reason`, or Anthropic's `stop_reason`. */
export function finishReason(ex: Exchange): unknown {
  if (messageBlocks(ex)) return (ex.response?.json as { stop_reason?: unknown }).stop_reason;
  return firstChoice(ex)?.finish_reason;
}

/** Whether a finish reason says `max_tokens` cut the answer (`length`; Anthropic's `max_tokens`). */
export function isCutShort(reason: unknown): boolean {
  return reason === 'length' || reason === 'max_tokens';
}

/**
 * Where the description states it (`usage-totals`): a usage's `total_tokens` is its input plus its output
 * (`prompt_tokens + completion_tokens`, or `input_tokens + output_tokens`). `usage` is the object itself,
 * or taken from a JSON answer.
 */
export function usageAddsUp(t: Tester, ex: Exchange, usage: unknown = (ex.response?.json as { usage?: unknown } | undefined)?.usage): boolean {
  if (!t.ctx.protocol.rule('usage-totals') || typeof usage !== 'object' || usage === null) return true;
  const u = usage as Record<string, unknown>;
  if (typeof u.total_tokens !== 'number') return true;
  const [input, output] = typeof u.prompt_tokens === 'number' ? [u.prompt_tokens, u.completion_tokens] : [u.input_tokens, u.output_tokens];
  if (typeof input !== 'number' || typeof output !== 'number') return true;
  return t.expect(u.total_tokens === input + output, `usage.total_tokens is ${u.total_tokens}, the input and output tokens add up to ${input + output}`, 'usage-totals', ex);
}
