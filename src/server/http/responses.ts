/**
 * The parts of answers that more than one operation shares, as the contract defines them: what a request
 * cost, what is left of a quota, and the image result.
 */
import type { components } from '../../../generated/schema.d.ts';
import type { Model } from '../catalogue/catalogue.ts';
import type { QuotaState } from '../domain/errors.ts';
import type { ImageBatch } from '../domain/images.ts';

/**
 * Decision D8: a request costs ceil(total_tokens × multiplier); the client sees it in two headers. A stream
 * whose cost is known only at its end (an upstream's) carries the multiplier alone (decision D31): its usage
 * is in the stream.
 *
 * @example
 * billingHeaders(model, 120); // { 'x-gateway-multiplier': '1.5', 'x-gateway-billed-tokens': '180' }
 */
export function billingHeaders(model: Model, totalTokens: number | undefined): Record<string, string> {
  if (totalTokens === undefined) return { 'x-gateway-multiplier': String(model.multiplier) };
  return {
    'x-gateway-multiplier': String(model.multiplier),
    'x-gateway-billed-tokens': String(Math.ceil(totalTokens * model.multiplier)),
  };
}

/**
 * The image quota after a request (decision D6), on every image answer, 429s included.
 *
 * @example
 * quotaHeaders({ limit: 3, remaining: 1, resetSeconds: 3600 });
 */
export function quotaHeaders(quota: QuotaState): Record<string, string> {
  return {
    'x-ratelimit-limit-images': String(quota.limit),
    'x-ratelimit-remaining-images': String(quota.remaining),
    'x-ratelimit-reset-images': String(quota.resetSeconds),
  };
}

/**
 * The contract's `ImageResult`: the PNGs in base64.
 *
 * @example
 * reply.headers(quotaHeaders(batch.quota)).send(imageResult(batch, now()));
 */
export function imageResult(batch: ImageBatch, at: Date): components['schemas']['ImageResult'] {
  return { created: Math.floor(at.getTime() / 1000), data: batch.pngs.map((png) => ({ b64_json: png.toString('base64') })) };
}
