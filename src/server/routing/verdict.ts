/**
 * What a routed request's attempts came to (decision D40): each failed attempt judged by its upstream's
 * failure (whether another attempt may follow, and whether it counts against the upstream's health), and,
 * when none served, the one error that says what each attempt met — named, with the upstream's origin and
 * words, never a key or anything of a URL beyond its origin.
 */
import type { RetriableFailure } from '../catalogue/catalogue-file.ts';
import { GatewayError } from '../domain/errors.ts';
import { DEFAULT_RETRY_SECONDS, MAX_RETRY_SECONDS, UpstreamFailed } from '../upstream/gateway-errors.ts';

/**
 * A failed attempt's judgement: an upstream's own failure (`RetriableFailure`), a request its protocol cannot
 * take (`unsupported`: nothing was sent, another upstream may take it), or the caller's own mistake that the
 * upstream refused (`refused`: never retried).
 */
export interface Judged {
  outcome: RetriableFailure | 'unsupported' | 'refused';
  /** What happened, after the upstream's name. */
  account: string;
  /** A 429's Retry-After, in seconds, when it gave one. */
  retryAfterSeconds?: number;
}

/**
 * The judgement of an attempt's error, or `undefined` for an error that is no upstream's (a fault of the
 * gateway itself, passed on as it is).
 *
 * @example
 *   judge(error); // { outcome: 'connect_error', account: 'cannot be reached (ECONNREFUSED)' }
 */
export function judge(error: unknown): Judged | undefined {
  if (!(error instanceof UpstreamFailed)) return undefined;
  const { failure, account } = error;
  switch (failure.failure) {
    case 'unreachable':
      return { outcome: 'connect_error', account };
    case 'timeout':
      return { outcome: 'timeout', account };
    case 'unsupported':
      return { outcome: 'unsupported', account };
    case 'malformed':
    case 'stream':
      return { outcome: 'server_error', account };
    case 'status': {
      const status = failure.detail.status ?? 500;
      if (status === 429) return failure.detail.retryAfter === undefined ? { outcome: 'rate_limited', account } : { outcome: 'rate_limited', account, retryAfterSeconds: failure.detail.retryAfter };
      if (status === 408) return { outcome: 'timeout', account };
      if (status === 401 || status === 403 || status >= 500) return { outcome: 'server_error', account };
      return { outcome: 'refused', account };
    }
  }
}

/** One attempt that did not serve: which upstream, and what it met. */
export interface FailedAttempt {
  upstream: string;
  origin: string;
  judged: Judged;
  /** Its own error, passed on when it alone explains the outcome. */
  error: unknown;
}

/** An upstream left out: cooling down until `backAt`, or (`undefined`) being probed by another request. */
export interface Resting {
  upstream: string;
  backAt: number | undefined;
}

/** Why no more attempts were made. */
export type Exhaustion = 'attempts' | 'out_of_time';

/**
 * The error of a request no upstream served: 504 when its total time ran out or every attempt timed out; 503
 * with Retry-After when no upstream could be tried (all cooling down: until the first comes back) or every
 * one was busy (429: the soonest Retry-After); a request no upstream's protocol can take, the first one's 400;
 * otherwise 502. The message names every attempt, and the upstreams left out because they cool down.
 *
 * @example
 *   throw exhausted('gpt-4o', failed, [{ upstream: 'c', backAt }], 'attempts', { now, totalMs });
 */
export function exhausted(
  model: string,
  failed: readonly FailedAttempt[],
  resting: readonly Resting[],
  why: Exhaustion,
  time: { now: number; totalMs: number },
): unknown {
  const told = failed.map((f) => `upstream '${f.upstream}' (${f.origin}): ${f.judged.account}`);
  const left = resting.map((r) => `upstream '${r.upstream}' not tried: ${r.backAt === undefined ? 'another request is trying it after its cool-down' : `cooling down until ${new Date(r.backAt).toISOString()}`}`);
  const accounts = [...told, ...left].join('; ');
  const tried = `${failed.length} attempt${failed.length === 1 ? '' : 's'}`;
  if (why === 'out_of_time') {
    return new GatewayError('gateway_timeout', `Model '${model}': no upstream answered within the request's ${time.totalMs} ms (${tried}): ${accounts}.`);
  }
  if (failed.length === 0) {
    const soonest = Math.min(...resting.map((r) => r.backAt ?? time.now + 1000));
    return new GatewayError('unavailable', `Model '${model}': every upstream is cooling down after failures: ${accounts}. Try again later.`, retryAfter(soonest - time.now));
  }
  const outcomes = new Set(failed.map((f) => f.judged.outcome));
  if (outcomes.size === 1 && outcomes.has('unsupported')) return failed[0]!.error;
  if (outcomes.size === 1 && outcomes.has('rate_limited')) {
    const waits = failed.map((f) => f.judged.retryAfterSeconds ?? DEFAULT_RETRY_SECONDS);
    return new GatewayError('unavailable', `Model '${model}': every upstream tried is busy (${tried}): ${accounts}. This is not your key's quota; try again later.`, Math.min(...waits, MAX_RETRY_SECONDS));
  }
  if (outcomes.size === 1 && outcomes.has('timeout')) return new GatewayError('gateway_timeout', `Model '${model}': no upstream answered in time (${tried}): ${accounts}.`);
  return new GatewayError('bad_gateway', `Model '${model}': no upstream could answer (${tried}): ${accounts}.`);
}

/** Seconds to wait for `ms`, at least one and at most the contract's bound. */
function retryAfter(ms: number): number {
  return Math.min(Math.max(1, Math.ceil(ms / 1000)), MAX_RETRY_SECONDS);
}
