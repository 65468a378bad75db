/**
 * A model's routing as the router uses it: the catalogue's `routing` with every default filled in (decision
 * D40). The defaults follow what the anchors of this feature do by default, made bounded: one attempt per
 * upstream, every failure of the upstream's own retried, backoff with full jitter, a 429's Retry-After
 * honoured up to a minute, five minutes for the whole request, and three failures in a minute cooling an
 * upstream down for thirty seconds.
 */
import type { CatalogueEntry, RetriableFailure } from '../catalogue/catalogue-file.ts';

export interface RoutingPolicy {
  strategy: 'fallback' | 'weighted';
  /** Attempts in all, the first included. */
  attempts: number;
  retryOn: ReadonlySet<RetriableFailure>;
  backoff: { baseMs: number; maxMs: number };
  retryAfterCapMs: number;
  /** The whole request's attempts and waits, until the answer (a stream's first event). */
  totalMs: number;
  cooldown: { failures: number; windowMs: number; durationMs: number };
}

export const ALL_FAILURES: readonly RetriableFailure[] = ['connect_error', 'timeout', 'rate_limited', 'server_error'];

/**
 * The model's routing, or `undefined` for a model the gateway does not route: one `upstream` without
 * `routing`, called once as it always was (D31), at no cost beyond that call.
 *
 * @example
 *   const policy = routingPolicy(entry); // { strategy: 'fallback', attempts: 2, … }
 */
export function routingPolicy(entry: CatalogueEntry): RoutingPolicy | undefined {
  if (!entry.upstreams && !entry.routing) return undefined;
  const routing = entry.routing ?? {};
  const count = entry.upstreams?.length ?? 1;
  return {
    strategy: routing.strategy ?? 'fallback',
    attempts: routing.attempts ?? count,
    retryOn: new Set(routing.retry_on ?? ALL_FAILURES),
    backoff: { baseMs: routing.backoff?.base_ms ?? 250, maxMs: routing.backoff?.max_ms ?? 4000 },
    retryAfterCapMs: routing.retry_after_cap_ms ?? 60_000,
    totalMs: routing.total_ms ?? 300_000,
    cooldown: {
      failures: routing.cooldown?.failures ?? 3,
      windowMs: routing.cooldown?.window_ms ?? 60_000,
      durationMs: routing.cooldown?.duration_ms ?? 30_000,
    },
  };
}
