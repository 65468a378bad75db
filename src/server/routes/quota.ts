/**
 * The daily image quota (decisions D5–D7): images per key per UTC day, shared by generation and edits.
 * A request for more than what is left fails whole with 429 and costs nothing.
 */
import type { FastifyRequest } from 'fastify';
import { dailyImageQuota } from '../../contract/index.ts';
import type { GatewayContext } from '../context.ts';
import { secondsUntilUtcMidnight, utcDay } from '../day.ts';
import { HttpError } from '../http-error.ts';

export interface ImageGrant {
  /** How many images to produce (the request's `n`, unless a fault says otherwise). */
  n: number;
  headers: Record<string, string>;
  /** Gives the images back when producing them failed. */
  refund(): void;
}

export function reserveImages(n: number, request: FastifyRequest, context: GatewayContext): ImageGrant {
  const now = context.now();
  const day = utcDay(now);
  const reset = String(secondsUntilUtcMidnight(now));
  const key = request.apiKey;
  if (!key) return { n, headers: {}, refund() {} };
  const { faults, store } = context;
  const limit = dailyImageQuota(key.tier) + (faults.has('quota-off-by-one') ? 1 : 0);
  let granted = n;
  let reservation = store.reserveImages(key.id, day, n, limit);
  if (!reservation.granted && faults.has('quota-partial-grant') && limit - reservation.used > 0) {
    granted = limit - reservation.used;
    reservation = store.reserveImages(key.id, day, granted, limit);
  }
  const quota = dailyImageQuota(key.tier);
  const headers = {
    'x-ratelimit-limit-images': String(quota),
    'x-ratelimit-remaining-images': String(Math.max(0, quota - reservation.used)),
    'x-ratelimit-reset-images': reset,
  };
  if (!reservation.granted) {
    throw new HttpError(429, 'Daily quota exceeded.', {
      ...(!faults.has('missing-retry-after') && { 'retry-after': reset }),
      'x-should-retry': 'false',
      ...headers,
    });
  }
  return {
    n: granted,
    headers,
    refund: () => store.releaseImages(key.id, day, granted),
  };
}
