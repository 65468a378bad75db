/** Helpers the check families share: a valid request to start from, and the usual expectations. */
import { dailyImageQuota, isPublic, tiers, type Operation } from '../../contract/index.ts';
import type { Tester } from '../check.ts';
import { buildRequest, firstExample, type BuildOptions, type RequestExample } from '../examples.ts';
import type { Exchange, OutgoingRequest } from '../http.ts';
import type { TierKey } from '../keys.ts';
import { checkErrorBody } from '../shape.ts';

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
 * A valid request for the operation, from its first example, sent with the highest-tier key (or no key
 * for a public operation unless `withKey`; with `keyOptional`, no key when none was given). With `spend`, the key is the highest-tier one that still has
 * that many images left today (the suite books what it was given), so a run with low-tier keys does not
 * run into their quota. Skips the check when the contract has no example or no key fits.
 */
export function validRequest(
  t: Tester,
  op: Operation,
  example?: RequestExample,
  options: { withKey?: boolean; keyOptional?: boolean; spend?: number } & BuildOptions = {},
): OutgoingRequest {
  const ex = example ?? firstExample(op);
  if (!ex) t.skip(`the contract has no request example for ${op.operationId}`);
  const { spend, withKey, keyOptional, ...build } = options;
  const needsKey = withKey || !isPublic(op);
  const chosen = spend !== undefined && t.ctx.profile.stateful ? keyWithImages(t, spend) : t.ctx.keys.best();
  if (needsKey && !chosen && !keyOptional) t.skip('no key given (--key tier=sk-…)');
  const req = buildRequest(op, ex, {
    catalogue: t.ctx.catalogue,
    // Without a key, fit models as the highest tier would: the request fails on its key alone.
    tier: chosen?.tier ?? tiers[tiers.length - 1]!,
    ...(needsKey && chosen ? { key: chosen.key } : {}),
    ...build,
  });
  return withStreamAccept(t, req);
}

/** The highest-tier key with at least `images` left today, by the suite's own booking. */
function keyWithImages(t: Tester, images: number): TierKey {
  if (t.ctx.keys.size === 0) t.skip('no key given (--key tier=sk-…)');
  const fit = [...t.ctx.keys.keys].reverse().find(({ tier, key }) => dailyImageQuota(tier) - t.ctx.ledger.of(key) >= images);
  if (!fit) t.skip(`no key given has ${images} images left today`);
  return fit;
}

/** A stateless mock picks SSE by the `Accept` header; a real server by `stream: true`. */
export function withStreamAccept(t: Tester, req: OutgoingRequest): OutgoingRequest {
  const streaming = (req.json as { stream?: unknown } | undefined)?.stream === true;
  if (!streaming || !t.ctx.profile.streamByAccept) return req;
  return { ...req, headers: { ...req.headers, accept: 'text/event-stream' } };
}

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

/** The `error` message of an answer equals the fixed text. */
export function expectMessage(t: Tester, ex: Exchange, message: string, rule: string): boolean {
  const got = (ex.response?.json as { error?: unknown } | undefined)?.error;
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
  const error = (ex.response?.json as { error?: unknown } | undefined)?.error;
  return typeof error === 'string' ? ` (${error})` : '';
}
