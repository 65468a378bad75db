/**
 * Failed sign-ins throttled per client address (decision D26): after `MAX_FAILURES` wrong admin tokens within
 * `WINDOW_MS`, an address is refused (429 with `Retry-After`) until its window ends, whatever it sends, so the
 * token cannot be guessed at the speed of the network. A right token clears the address's count. The table
 * is bounded: when full, the oldest addresses are forgotten first.
 */
import { tooManyRequests } from '../domain/errors.ts';

const MAX_FAILURES = 10;
const WINDOW_MS = 10 * 60_000;
const MAX_ADDRESSES = 10_000;

export interface SignInThrottle {
  /** Throws the 429 when the address is blocked. */
  check(address: string): void;
  failed(address: string): void;
  succeeded(address: string): void;
}

/**
 * @example
 * const throttle = createSignInThrottle(() => new Date());
 * throttle.check(request.ip); // throws once the address has failed 10 times in 10 minutes
 */
export function createSignInThrottle(now: () => Date): SignInThrottle {
  const failures = new Map<string, { count: number; since: number }>();

  const current = (address: string) => {
    const entry = failures.get(address);
    if (entry && now().getTime() - entry.since >= WINDOW_MS) {
      failures.delete(address);
      return undefined;
    }
    return entry;
  };

  return {
    check(address) {
      const entry = current(address);
      if (!entry || entry.count < MAX_FAILURES) return;
      const seconds = Math.max(1, Math.ceil((entry.since + WINDOW_MS - now().getTime()) / 1000));
      throw tooManyRequests(`Too many wrong admin tokens from this address; try again in ${seconds} seconds.`, seconds);
    },
    failed(address) {
      const entry = current(address);
      if (entry) {
        entry.count++;
        return;
      }
      if (failures.size >= MAX_ADDRESSES) failures.delete(failures.keys().next().value!);
      failures.set(address, { count: 1, since: now().getTime() });
    },
    succeeded(address) {
      failures.delete(address);
    },
  };
}
