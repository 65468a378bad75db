/**
 * How the checks judge an answer: the interface specification's fixed messages and the rules they cite,
 * the usual expectations (a documented success, a 4xx `{error}`, a 401), and readers of a text answer.
 */
import type { Operation } from '../contract/index.ts';
import type { Tester } from './check.ts';
import type { Exchange } from './http.ts';
import { checkErrorBody } from './shape.ts';

/** The interface specification's fixed messages (its Errors table). */
export const MESSAGES = {
  invalidKey: 'Invalid API Key.',
  quotaExceeded: 'Daily quota exceeded.',
} as const;

export const SPEC = {
  auth: 'specification: Authentication',
  errors: 'specification: Errors',
  limits: 'specification: Limits',
  images: 'specification: POST /v1/generation/image',
  edit: 'specification: POST /v1/generation/image/edit',
  chat: 'specification: POST /v1/chat/completions',
} as const;

/**
 * An invalid request's answer: a 4xx `{error}`, never a 5xx. In the full profile the status must be the
 * documented one (`status`, usually 400) and the answer must conform to the contract.
 */
export function expectClientError(t: Tester, op: Operation, ex: Exchange, status: number, rule: string): boolean {
  const got = ex.response?.status;
  if (got === undefined) return t.expect(false, `no answer: ${ex.error}`, rule, ex);
  if (!t.expect(got >= 400 && got < 500, `expected a 4xx error, got ${got}`, rule, ex)) return false;
  if (t.ctx.profile.reference) {
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

/** A 401 for a missing or invalid key: documented, and with the specification's message. */
export function expectUnauthorized(t: Tester, op: Operation, ex: Exchange, what: string): void {
  if (!t.status(ex, 401, SPEC.auth, what)) return;
  t.shape(op, ex);
  expectMessage(t, ex, MESSAGES.invalidKey, SPEC.errors);
}

/** A success: a 2xx that conforms to the operation's documented response. */
export function expectSuccess(t: Tester, op: Operation, ex: Exchange, rule: string, what = ''): boolean {
  const got = ex.response?.status ?? 0;
  if (!t.expect(got >= 200 && got < 300, `${what ? `${what}: ` : ''}expected a success, got ${got || `no answer (${ex.error})`}${errorOf(ex)}`, rule, ex)) return false;
  return t.shape(op, ex);
}

/** An answer without an operation (unknown route): `{error}` as JSON, unless the server is a mock. */
export function expectErrorBody(t: Tester, ex: Exchange): boolean {
  if (!t.ctx.profile.stateful) return true;
  const found = checkErrorBody(ex, t.ctx.profile);
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
