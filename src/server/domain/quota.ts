/**
 * The daily image quota (decisions D5–D7): images per key per UTC day, shared by generation and edits. A
 * request for more than what is left fails whole and costs nothing; the store makes each reservation atomic,
 * so concurrent requests never grant more than the quota.
 */
import { dailyImageQuota } from '../../contract/index.ts';
import { secondsUntilUtcMidnight, utcDay } from './day.ts';
import { QuotaExceeded, type QuotaState } from './errors.ts';
import type { ApiKeyRecord, Store } from './store/index.ts';

export interface ImageGrant {
  /** The quota after this reservation. */
  state: QuotaState;
  /** Gives the images back (their production failed). */
  refund(): Promise<void>;
}

export interface ImageQuota {
  /** Reserves `n` images for the key today, or throws QuotaExceeded. */
  reserve(key: ApiKeyRecord, n: number): Promise<ImageGrant>;
}

/**
 * @example
 * const quota = createImageQuota(store, () => new Date());
 * const grant = await quota.reserve(key, 2); // grant.state: { limit: 3, remaining: 1, resetSeconds: … }
 */
export function createImageQuota(store: Store, now: () => Date): ImageQuota {
  return {
    async reserve(key, n) {
      const at = now();
      const day = utcDay(at);
      const limit = dailyImageQuota(key.tier);
      const reservation = await store.reserveImages(key.id, day, n, limit);
      const state: QuotaState = { limit, remaining: Math.max(0, limit - reservation.used), resetSeconds: secondsUntilUtcMidnight(at) };
      if (!reservation.granted) throw new QuotaExceeded(state);
      return { state, refund: () => store.releaseImages(key.id, day, n) };
    },
  };
}
