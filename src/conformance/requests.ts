/**
 * The requests the checks send: a valid one to start from (the operation's first example, with the key
 * that fits), then changed in one place so that only that place can be wrong.
 */
import { dailyImageQuota, isPublic, tiers, type Operation } from '../contract/index.ts';
import type { Tester } from './check.ts';
import { buildRequest, firstExample, type BuildOptions, type RequestExample } from './examples.ts';
import type { OutgoingRequest } from './http.ts';
import type { TierKey } from './keys.ts';

/** A request long enough that a small `max_tokens` has to cut its answer. */
const LONG_PROMPT = 'Tell me a long story about a lighthouse keeper and the sea, in at least three paragraphs.';

/** The `max_tokens` of a long request where the field is required (Anthropic's): far above any answer. */
const ROOMY_MAX_TOKENS = 4096;

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
  const ex = example ?? firstExample(t.ctx.contract, op);
  if (!ex) t.skip(`the contract has no request example for ${op.operationId}`);
  const { spend, withKey, keyOptional, ...build } = options;
  const needsKey = withKey || !isPublic(op);
  const chosen = spend !== undefined && t.ctx.profile.stateful ? keyWithImages(t, spend) : t.ctx.keys.best();
  if (needsKey && !chosen && !keyOptional) t.skip('no key given (--key tier=sk-…)');
  const req = buildRequest(t.ctx, op, ex, {
    // Without a key, fit models as the highest tier would: the request fails on its key alone.
    tier: chosen ? chosen.tier : tiers[tiers.length - 1]!,
    ...(needsKey && chosen ? { key: chosen.key } : {}),
    ...build,
  });
  return withStreamAccept(t, req);
}

/** The highest-tier key with at least `images` left today, by the suite's own booking. */
function keyWithImages(t: Tester, images: number): TierKey {
  if (t.ctx.keys.tiered().length === 0) t.skip('no key given with its tier (--key tier=sk-…)');
  const left = t.ctx.keys.tiered().map((k) => ({ ...k, left: t.ctx.ledger.left(k.key, dailyImageQuota(k.tier)) }));
  const fit = [...left].reverse().find((k) => k.left >= images);
  if (!fit) t.skip(`quota left: ${left.map((k) => `${k.left} (${k.tier})`).join(', ')}, needs ${images}`);
  return fit!;
}

/** A stateless mock picks SSE by the `Accept` header; a real server by `stream: true`. */
export function withStreamAccept(t: Tester, req: OutgoingRequest): OutgoingRequest {
  const streaming = (req.json as { stream?: unknown } | undefined)?.stream === true;
  if (!streaming || !t.ctx.profile.streamByAccept) return req;
  return { ...req, headers: { ...req.headers, accept: 'text/event-stream' } };
}

/** The operation's first example asking for a long answer, deterministic (`temperature: 0`), not streamed. */
export function longRequest(t: Tester, op: Operation): OutgoingRequest {
  const base = validRequest(t, op);
  const body: Record<string, unknown> = { ...(base.json as Record<string, unknown>), temperature: 0 };
  for (const field of ['max_tokens', 'max_completion_tokens', 'max_output_tokens', 'stream', 'stream_options', 'tools', 'tool_choice', 'text']) delete body[field];
  if (requiredFields(t, op).includes('max_tokens')) body.max_tokens = ROOMY_MAX_TOKENS;
  if (Array.isArray(body.messages)) body.messages = [{ role: 'user', content: LONG_PROMPT }];
  else if (body.input !== undefined) body.input = LONG_PROMPT;
  else if (typeof body.prompt === 'string') body.prompt = LONG_PROMPT;
  return { ...base, json: body };
}

/** The fields the operation's JSON request body requires. */
function requiredFields(t: Tester, op: Operation): string[] {
  const contract = t.ctx.contract;
  const { pointer } = contract.requestBodyValidator(op.operationId);
  const schema = contract.deref<{ required?: string[]; allOf?: unknown[] }>({ $ref: `#${pointer}` });
  // A vendor's request extends the shared one (`allOf`): its members' required fields are required too.
  return [...(schema.required ?? []), ...(schema.allOf ?? []).flatMap((m) => contract.resolveSchema(m).required as string[] ?? [])];
}

export function withBody(req: OutgoingRequest, patch: Record<string, unknown>): OutgoingRequest {
  return { ...req, json: { ...(req.json as Record<string, unknown>), ...patch } };
}
