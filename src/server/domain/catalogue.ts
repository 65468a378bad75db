/**
 * The models the reference implementation serves, and the rules every operation applies to the model a
 * request names, in order: it exists (404), it offers the endpoint (400), the key's tier may use it (403).
 * The models are the contract's own listing example (`ListModelsResponseExample`), so the docs and the Prism
 * mock show exactly the catalogue this server has.
 */
import type { components } from '../../../generated/schema.d.ts';
import { contract, tierRank, type Tier } from '../../contract/index.ts';
import { forbidden, invalidRequest, notFound } from './errors.ts';

export type Model = components['schemas']['Model'];

export const models: readonly Model[] = (contract.spec.components.examples.ListModelsResponseExample!.value as { models: Model[] }).models;

const byId = new Map(models.map((m) => [m.id, m]));

/** The image model: the one that offers image generation (`image-gen`). */
export const imageModel: Model = models.find((m) => m.endpoints.includes('/v1/generation/image'))!;

/** A model by id, or not_found (decision D10). */
function findModel(id: string): Model {
  const model = byId.get(id);
  if (!model) throw notFound(`Model '${id}' does not exist. GET /v1/models lists the available models.`);
  return model;
}

/** invalid_request unless the model offers the endpoint; for image generation the message names the image model. */
function requireEndpoint(model: Model, endpoint: string): void {
  if (model.endpoints.includes(endpoint)) return;
  if (endpoint === '/v1/generation/image') {
    throw invalidRequest(`Model '${model.id}' does not support image generation. Use the image model '${imageModel.id}'.`);
  }
  const alternative = models.find((m) => m.endpoints.includes(endpoint));
  throw invalidRequest(
    `Model '${model.id}' does not support ${endpoint}. Use a model whose endpoints include it${alternative ? `, such as '${alternative.id}'` : ''}.`,
  );
}

/** permission when the model's tier is above the key's (decision D3 for the message). */
function requireTier(model: Model, keyTier: Tier): void {
  if (tierRank(model.tier) > tierRank(keyTier)) {
    throw forbidden(`Model '${model.id}' requires the '${model.tier}' tier; this key's tier is '${keyTier}'.`);
  }
}

/**
 * The model a request names, checked for the endpoint and the caller's tier (an anonymous caller of a public
 * operation has no tier limit).
 *
 * @example
 * const model = modelFor('gpt-4o-mini', '/v1/chat/completions', request.apiKey?.tier);
 */
export function modelFor(id: string, endpoint: string, tier: Tier | undefined): Model {
  const model = findModel(id);
  requireEndpoint(model, endpoint);
  if (tier !== undefined) requireTier(model, tier);
  return model;
}
