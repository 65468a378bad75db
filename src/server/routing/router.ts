/**
 * A model's router (decision D40): which of its upstreams takes a request, and what happens when one fails.
 * Each attempt goes to an upstream that can take it — in the catalogue's order (`fallback`) or by smooth
 * weighted round robin (`weighted`: weights 3 and 1 give exactly 3 of every 4 requests to the first while both
 * are healthy) — preferring one this request has not tried; an upstream tried already is tried again only
 * after a backoff with full jitter. An upstream's failure counts against its health (health.ts); the caller's
 * own mistake is passed on at once. The attempts together never take longer than the policy's total: a timer
 * aborts the one under way. A client that goes away aborts it too, and no attempt follows. Only what happens
 * before the answer is handed over is routed: a stream that has begun is never moved to another upstream.
 *
 * Each request's attempts are one line of the server's log (upstream, outcome, milliseconds each): info when
 * the first attempt served, a warning when any failed. The answer's headers say which upstream served and
 * after how many attempts (`Abandonment.routed`).
 */
import { randomInt } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import type { UpstreamProtocolName } from '../catalogue/catalogue-file.ts';
import type { Abandonment } from '../domain/abandonment.ts';
import type { RoutingClock } from './clock.ts';
import type { HealthView, UpstreamHealth } from './health.ts';
import type { RoutingPolicy } from './policy.ts';
import { MAX_RETRY_SECONDS } from '../upstream/gateway-errors.ts';
import { exhausted, judge, type Exhaustion, type FailedAttempt, type Judged, type Resting } from './verdict.ts';

/** One upstream of the model, with the service that calls it (`S`: a text service, an image painter). */
export interface RoutedUpstream<S> {
  name: string;
  protocol: UpstreamProtocolName;
  /** Its origin, for messages and the dashboard: never a key, nothing of its URL beyond the origin. */
  origin: string;
  weight: number;
  service: S;
  health: UpstreamHealth;
}

/** What one attempt of a request came to, as the log line lists it. */
export interface AttemptRecord {
  upstream: string;
  outcome: 'served' | Judged['outcome'] | 'abandoned' | 'out_of_time' | 'fault';
  ms: number;
}

/** A model's upstreams and their health at one moment (the admin API's). */
export interface RoutedModelView {
  model: string;
  strategy: RoutingPolicy['strategy'];
  upstreams: Array<{ name: string; protocol: UpstreamProtocolName; origin: string; weight: number } & HealthView>;
}

export class UpstreamRouter<S> {
  /** Smooth weighted round robin's running scores, one per upstream. */
  readonly #scores: number[];

  constructor(
    readonly model: string,
    private readonly upstreams: readonly RoutedUpstream<S>[],
    private readonly policy: RoutingPolicy,
    private readonly clock: RoutingClock,
    private readonly log: FastifyBaseLogger,
  ) {
    this.#scores = upstreams.map(() => 0);
  }

  /**
   * The request's answer from the first upstream that gives one, `attempt` making each try with the service of
   * the upstream chosen and the request's own abandonment (aborted when the client leaves or the time is out).
   * Resolves with the answer and the upstream that served it; rejects with the error that says why none did.
   *
   * @example
   *   const { value } = await router.run(abandoned, (service, scope) => service.answerChat(request, scope));
   */
  async run<T>(abandoned: Abandonment | undefined, attempt: (service: S, scope: Abandonment) => Promise<T>): Promise<{ value: T; upstream: RoutedUpstream<S>; scope: Abandonment }> {
    const { policy, clock } = this;
    const started = performance.now();
    const controller = new AbortController();
    const scope: Abandonment = { signal: controller.signal };
    const client = abandoned?.signal;
    const leave = () => controller.abort(client!.reason);
    if (client?.aborted) leave();
    else client?.addEventListener('abort', leave, { once: true });
    const outOfTime = new Error(`The request's ${policy.totalMs} ms for its attempts ran out.`);
    const timer = setTimeout(() => controller.abort(outOfTime), policy.totalMs);

    const records: AttemptRecord[] = [];
    const failed: FailedAttempt[] = [];
    const tried = new Set<RoutedUpstream<S>>();
    const fits = (waitMs: number) => performance.now() - started + waitMs < policy.totalMs;
    let why: Exhaustion = 'attempts';
    try {
      while (records.length < policy.attempts) {
        let next = this.#choose(tried);
        if (next && tried.has(next)) {
          // Every upstream that can take it was tried by this request: the same again, after a backoff.
          const wait = randomInt(0, Math.min(policy.backoff.maxMs, policy.backoff.baseMs * 2 ** (records.length - 1)) + 1);
          if (!fits(wait)) break;
          await clock.sleep(wait, controller.signal);
          next = this.#choose(tried);
        }
        if (!next && tried.size > 0) {
          // None can take it now: one resting for a Retry-After may be back soon enough to wait for.
          const back = this.#soonestRested();
          if (back === undefined || back - clock.now() > policy.retryAfterCapMs || !fits(back - clock.now())) break;
          await clock.sleep(back - clock.now(), controller.signal);
          next = this.#choose(tried);
        }
        if (!next) break;
        tried.add(next);
        const probe = next.health.admit();
        const began = performance.now();
        try {
          const value = await attempt(next.service, scope);
          next.health.succeeded(probe);
          records.push({ upstream: next.name, outcome: 'served', ms: since(began) });
          this.#tell(abandoned, next.name, records, started);
          return { value, upstream: next, scope };
        } catch (error) {
          if (controller.signal.aborted) {
            const late = controller.signal.reason === outOfTime;
            records.push({ upstream: next.name, outcome: late ? 'out_of_time' : 'abandoned', ms: since(began) });
            if (!late) next.health.released(probe);
            else {
              // Still answering when the request's time ran out: as slow as a timeout, for its health.
              const now = clock.now();
              const account = 'was still answering when the time ran out';
              next.health.failed(now, probe, { kind: 'timeout', at: now, account });
              failed.push({ upstream: next.name, origin: next.origin, judged: { outcome: 'timeout', account }, error });
            }
            throw error;
          }
          const judged = judge(error);
          if (!judged || judged.outcome === 'refused') {
            // The caller's own mistake (or a fault of the gateway's): the upstream is not to blame, no other is asked.
            next.health.released(probe);
            records.push({ upstream: next.name, outcome: judged?.outcome ?? 'fault', ms: since(began) });
            throw error;
          }
          records.push({ upstream: next.name, outcome: judged.outcome, ms: since(began) });
          failed.push({ upstream: next.name, origin: next.origin, judged, error });
          if (judged.outcome === 'unsupported') {
            next.health.released(probe);
            continue;
          }
          const now = clock.now();
          const rest = judged.retryAfterSeconds === undefined ? undefined : Math.min(judged.retryAfterSeconds, MAX_RETRY_SECONDS) * 1000;
          next.health.failed(now, probe, { kind: judged.outcome, at: now, account: judged.account }, rest);
          if (!policy.retryOn.has(judged.outcome)) break;
        }
      }
    } catch (error) {
      // The caller's own mistake, a fault of the gateway's, or a caller gone: logged, and passed on as it is.
      if (controller.signal.reason !== outOfTime) {
        this.#log(undefined, records, started);
        throw error;
      }
      why = 'out_of_time';
    } finally {
      clearTimeout(timer);
    }
    client?.removeEventListener('abort', leave);
    this.#tell(abandoned, undefined, records, started);
    throw exhausted(this.model, failed, this.#resting(tried), why, { now: clock.now(), totalMs: policy.totalMs });
  }

  /**
   * A stream's steps as they come, an upstream failure after it began counted against the upstream that served
   * it (the stream itself ends with its protocol's error event, as any stream that fails midway).
   */
  async *watched<E>(events: Iterable<E> | AsyncIterable<E>, served: RoutedUpstream<S>, scope: Abandonment): AsyncGenerator<E> {
    try {
      yield* events;
    } catch (error) {
      const judged = judge(error);
      if (judged && !scope.signal.aborted && judged.outcome !== 'refused' && judged.outcome !== 'unsupported') {
        const now = this.clock.now();
        served.health.failed(now, false, { kind: judged.outcome, at: now, account: judged.account });
      }
      throw error;
    }
  }

  view(): RoutedModelView {
    const now = this.clock.now();
    return {
      model: this.model,
      strategy: this.policy.strategy,
      upstreams: this.upstreams.map((u) => ({ name: u.name, protocol: u.protocol, origin: u.origin, weight: u.weight, ...u.health.view(now) })),
    };
  }

  /** The upstream for the next attempt: one that can take a request, preferably one this request has not tried. */
  #choose(tried: ReadonlySet<RoutedUpstream<S>>): RoutedUpstream<S> | undefined {
    const now = this.clock.now();
    const open = this.upstreams.filter((u) => u.health.available(now));
    const fresh = open.filter((u) => !tried.has(u));
    const pool = fresh.length > 0 ? fresh : open;
    if (pool.length === 0) return undefined;
    return this.policy.strategy === 'fallback' ? pool[0] : this.#weighted(pool);
  }

  /** Smooth weighted round robin over `pool`: each gains its weight, the highest is chosen and loses the pool's total. */
  #weighted(pool: readonly RoutedUpstream<S>[]): RoutedUpstream<S> {
    let best = -1;
    let total = 0;
    for (const u of pool) {
      const i = this.upstreams.indexOf(u);
      this.#scores[i]! += u.weight;
      total += u.weight;
      if (best < 0 || this.#scores[i]! > this.#scores[best]!) best = i;
    }
    this.#scores[best]! -= total;
    return this.upstreams[best]!;
  }

  /** When the first upstream resting for a Retry-After (and for nothing else) comes back, if any does. */
  #soonestRested(): number | undefined {
    const now = this.clock.now();
    let soonest: number | undefined;
    for (const u of this.upstreams) {
      const back = u.health.restsUntil(now);
      if (back !== undefined && (soonest === undefined || back < soonest)) soonest = back;
    }
    return soonest;
  }

  /** The upstreams this request left out because they could not take it. */
  #resting(tried: ReadonlySet<RoutedUpstream<S>>): Resting[] {
    const now = this.clock.now();
    return this.upstreams.filter((u) => !tried.has(u) && !u.health.available(now)).map((u) => ({ upstream: u.name, backAt: u.health.backAt(now) }));
  }

  /** The caller's headers and the log's line of one request's attempts. */
  #tell(abandoned: Abandonment | undefined, served: string | undefined, records: readonly AttemptRecord[], started: number): void {
    abandoned?.routed?.({ upstream: served, attempts: records.length });
    this.#log(served, records, started);
  }

  #log(served: string | undefined, records: readonly AttemptRecord[], started: number): void {
    const line = { model: this.model, upstream: served ?? null, attempts: records, ms: since(started) };
    // A warning when an upstream failed the request; the caller's own mistake or leaving is no upstream's.
    if (records.some((r) => r.outcome !== 'served' && r.outcome !== 'refused' && r.outcome !== 'abandoned')) this.log.warn(line, 'upstream attempts');
    else this.log.info(line, 'upstream attempts');
  }
}

/** Milliseconds since `t`, to a tenth. */
function since(t: number): number {
  return Math.round((performance.now() - t) * 10) / 10;
}
