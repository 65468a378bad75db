/**
 * The time a model's router keeps: `now` for its upstreams' cool-downs and rests, `sleep` for the waits
 * between attempts. The system's by default; `buildApp({ routingClock })` may give another (one whose sleep
 * moves its own `now` on, so that a cool-down passes without waiting for it).
 */
import { setTimeout as wait } from 'node:timers/promises';

export interface RoutingClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`, rejects when `signal` aborts first. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

export const systemClock: RoutingClock = {
  now: () => Date.now(),
  sleep: (ms, signal) => wait(ms, undefined, { signal }),
};
