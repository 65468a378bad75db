/** Decision D8: a request costs ceil(total_tokens × multiplier); the client sees it in two headers. */
import type { Model } from '../catalogue.ts';

export function billingHeaders(model: Model, totalTokens: number): Record<string, string> {
  return {
    'x-gateway-multiplier': String(model.multiplier),
    'x-gateway-billed-tokens': String(Math.ceil(totalTokens * model.multiplier)),
  };
}
