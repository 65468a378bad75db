/**
 * The models the reference implementation serves. They are the contract's own listing example
 * (`ListModelsResponseExample`), so the docs and the Prism mock show exactly the catalogue this server has.
 */
import type { components } from '../../generated/schema.d.ts';
import { spec, tierRank, type Tier } from '../contract/index.ts';
import { HttpError } from './http-error.ts';

export type Model = components['schemas']['Model'];

export const models: readonly Model[] = (spec.components.examples.ListModelsResponseExample!.value as { models: Model[] }).models;

const byId = new Map(models.map((m) => [m.id, m]));

/** The listing body, serialised once: it never changes while the server runs. */
export const listingJson = JSON.stringify({ models });

/** The image model: the one that offers image generation (`image-gen`). */
export const imageModel: Model = models.find((m) => m.endpoints.includes('/v1/generation/image'))!;

/** A model by id, or 404 (decision D10). */
export function findModel(id: string): Model {
  const model = byId.get(id);
  if (!model) throw new HttpError(404, `Model '${id}' does not exist. GET /v1/models lists the available models.`);
  return model;
}

/** 400 unless the model offers the endpoint; for image generation the message names the image model. */
export function requireEndpoint(model: Model, endpoint: string): void {
  if (model.endpoints.includes(endpoint)) return;
  if (endpoint === '/v1/generation/image') {
    throw new HttpError(400, `Model '${model.id}' does not support image generation. Use the image model '${imageModel.id}'.`);
  }
  const alternative = models.find((m) => m.endpoints.includes(endpoint));
  throw new HttpError(
    400,
    `Model '${model.id}' does not support ${endpoint}. Use a model whose endpoints include it${alternative ? `, such as '${alternative.id}'` : ''}.`,
  );
}

/** 403 when the model's tier is above the key's (decision D3 for the message). */
export function requireTier(model: Model, keyTier: Tier): void {
  if (tierRank(model.tier) > tierRank(keyTier)) {
    throw new HttpError(403, `Model '${model.id}' requires the '${model.tier}' tier; this key's tier is '${keyTier}'.`);
  }
}
