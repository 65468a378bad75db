/**
 * One upstream's health as its model's router sees it (decision D40), in this instance's memory: healthy;
 * cooling down until a time (after `failures` failures within `window_ms`, or for a 429's Retry-After), when
 * it gets no request; then, after a cool-down for failures, probing: exactly one request is let through, whose
 * success makes it healthy again and whose failure starts another cool-down. A rest for a Retry-After ends
 * healthy: the upstream said when to come back.
 */
import type { RetriableFailure } from '../catalogue/catalogue-file.ts';
import type { RoutingPolicy } from './policy.ts';

export type HealthState = 'healthy' | 'cooling_down' | 'probing';

/** The last failure an upstream met: its kind, when (ms since the epoch) and what it was, without a key. */
export interface LastFailure {
  kind: RetriableFailure;
  at: number;
  account: string;
}

/** An upstream's health and counts at one moment, for the admin API and the dashboard. */
export interface HealthView {
  state: HealthState;
  /** Until when it gets no request (ms since the epoch), while cooling down. */
  until: number | undefined;
  /** Its failures within the cool-down's window. */
  recentFailures: number;
  lastFailure: LastFailure | undefined;
  /** Requests sent to it, and those it served. */
  attempts: number;
  served: number;
}

export class UpstreamHealth {
  /** When its failures within the window happened, oldest first. */
  #failures: number[] = [];
  /** No request before these times: the end of its cool-down for failures, and of the rest a 429 asked for. */
  #cooling = 0;
  #resting = 0;
  /** Whether the next request after `#until` is a probe, and whether that probe is on its way. */
  #probe: 'none' | 'due' | 'out' = 'none';
  #last: LastFailure | undefined;
  #attempts = 0;
  #served = 0;

  constructor(private readonly cooldown: RoutingPolicy['cooldown']) {}

  /** Whether a request may be sent to it now. */
  available(now: number): boolean {
    return now >= this.#cooling && now >= this.#resting && this.#probe !== 'out';
  }

  /** When it may take a request again, if it cannot now because it cools down or rests (`undefined` otherwise). */
  backAt(now: number): number | undefined {
    const until = Math.max(this.#cooling, this.#resting);
    return now < until ? until : undefined;
  }

  /** When its rest for a 429's Retry-After ends, if that alone keeps it out now: what a request may wait for. */
  restsUntil(now: number): number | undefined {
    return now < this.#resting && now >= this.#cooling && this.#probe !== 'out' ? this.#resting : undefined;
  }

  /** A request is sent to it (it was `available`): whether that request is its probe. */
  admit(): boolean {
    this.#attempts++;
    if (this.#probe !== 'due') return false;
    this.#probe = 'out';
    return true;
  }

  /** It served the request: a probe's success ends its cool-down. */
  succeeded(probe: boolean): void {
    this.#served++;
    if (probe) {
      this.#probe = 'none';
      this.#failures = [];
    }
  }

  /**
   * It failed the request: counted within the window; a probe that fails, or the window's count reached, cools
   * it down for the policy's duration; a rest it asked for (`restMs`, a 429's Retry-After) keeps it out at
   * least that long. A cool-down never ends sooner for a later, shorter one.
   */
  failed(now: number, probe: boolean, failure: LastFailure, restMs?: number): void {
    this.#last = failure;
    const recent = this.#recent(now);
    recent.push(now);
    if (probe || recent.length >= this.cooldown.failures) {
      this.#cooling = Math.max(this.#cooling, now + this.cooldown.durationMs);
      this.#probe = 'due';
      this.#failures = [];
    }
    if (restMs !== undefined) this.#resting = Math.max(this.#resting, now + restMs);
  }

  /** The request ended without judging it (the caller's own mistake, or the caller went away): a probe is due again. */
  released(probe: boolean): void {
    if (probe) this.#probe = 'due';
  }

  view(now: number): HealthView {
    const until = this.backAt(now);
    return {
      state: until !== undefined ? 'cooling_down' : this.#probe === 'none' ? 'healthy' : 'probing',
      until,
      recentFailures: this.#recent(now).length,
      lastFailure: this.#last,
      attempts: this.#attempts,
      served: this.#served,
    };
  }

  /** The failures within the window, those before it let go. */
  #recent(now: number): number[] {
    const since = now - this.cooldown.windowMs;
    let first = 0;
    while (first < this.#failures.length && this.#failures[first]! <= since) first++;
    if (first > 0) this.#failures = this.#failures.slice(first);
    return this.#failures;
  }
}
