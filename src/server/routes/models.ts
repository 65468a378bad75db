/** The model rules every operation applies, in order: exists (404), offers the endpoint (400), tier (403). */
import type { FastifyRequest } from 'fastify';
import { findModel, requireEndpoint, requireTier, type Model } from '../catalogue.ts';
import type { GatewayContext } from '../context.ts';
import { HttpError } from '../http-error.ts';

export function resolveModel(id: string, endpoint: string, request: FastifyRequest, context: GatewayContext): Model {
  let model: Model;
  try {
    model = findModel(id);
  } catch (error) {
    if (context.faults.has('unknown-model-500')) throw new Error(`fault: unknown model ${id}`);
    throw error;
  }
  if (!(endpoint === '/v1/generation/image' && context.faults.has('image-model-rule-ignored'))) requireEndpoint(model, endpoint);
  if (!context.faults.has('tier-not-enforced')) {
    try {
      requireTier(model, request.apiKey?.tier ?? 'ultimate');
    } catch (error) {
      if (context.faults.has('forbidden-message-vague') && error instanceof HttpError) throw new HttpError(403, 'Forbidden.');
      throw error;
    }
  }
  return model;
}

export { HttpError };
