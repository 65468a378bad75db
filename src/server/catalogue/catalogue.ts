/**
 * The models a gateway serves, and the rules every operation applies to the model a request names, in order:
 * it exists (404), it offers the endpoint (400), the key's tier may use it (403). Without a catalogue file the
 * models are the contract's own listing example (`ListModelsResponseExample`), all answered by the built-in
 * engine, so the docs and the Prism mock show exactly the catalogue a first run has; an operator's file
 * (catalogue-file.ts) lists its own, each answered by the engine or by an upstream.
 */
import type { components } from '../../../generated/schema.d.ts';
import { contract, tierRank, type Tier } from '../../contract/index.ts';
import { forbidden, invalidRequest, notFound } from '../domain/errors.ts';
import type { CatalogueEntry } from './catalogue-file.ts';

export type Model = components['schemas']['Model'];

/** The endpoint of image generation, whose model the request names. */
const IMAGE_GENERATION = '/v1/generation/image';
/** The endpoint of image edits, which name no model (decision D15): the catalogue's first that offers it edits. */
const IMAGE_EDIT = '/v1/generation/image/edit';

export interface Catalogue {
  /** The models as `GET /v1/models` lists them (never their upstreams). */
  readonly models: readonly Model[];
  /**
   * The listing's JSON in UTF-8, made once: the catalogue never changes while the server runs. Bytes, not a
   * string: a string body is measured and encoded again for every answer, a Buffer is written as it is.
   */
  readonly listing: Buffer;
  /**
   * The model a request names, checked for the endpoint and the caller's tier (an anonymous caller of a public
   * operation has no tier limit).
   */
  modelFor(id: string, endpoint: string, tier: Tier | undefined): Model;
  /** The model that makes image edits, checked for the caller's tier (decision D15). */
  editModel(tier: Tier): Model;
}

/** The contract's listing example: the catalogue without a file. */
export function builtInEntries(): CatalogueEntry[] {
  return (contract.spec.components.examples.ListModelsResponseExample!.value as { models: Model[] }).models;
}

/**
 * @example
 * const catalogue = createCatalogue(readCatalogueFile('catalogue.yaml', process.env));
 * const model = catalogue.modelFor('gpt-4o-mini', '/v1/chat/completions', key.tier);
 */
export function createCatalogue(entries: readonly CatalogueEntry[] = builtInEntries()): Catalogue {
  const models: Model[] = entries.map(({ upstream: _upstream, upstreams: _upstreams, routing: _routing, ...model }) => model);
  const byId = new Map(models.map((m) => [m.id, m]));
  const offering = (endpoint: string) => models.find((m) => m.endpoints.includes(endpoint));

  /** A model by id, or not_found (decision D10). */
  function findModel(id: string): Model {
    const model = byId.get(id);
    if (!model) throw notFound(`Model '${id}' does not exist. GET /v1/models lists the available models.`);
    return model;
  }

  /** invalid_request unless the model offers the endpoint, naming one that does. */
  function requireEndpoint(model: Model, endpoint: string): void {
    if (model.endpoints.includes(endpoint)) return;
    const alternative = offering(endpoint);
    if (endpoint === IMAGE_GENERATION) {
      throw invalidRequest(
        `Model '${model.id}' does not support image generation. ${alternative ? `Use the image model '${alternative.id}'.` : 'No model of this gateway makes images.'}`,
      );
    }
    throw invalidRequest(
      `Model '${model.id}' does not support ${endpoint}. ${alternative ? `Use a model whose endpoints include it, such as '${alternative.id}'.` : 'No model of this gateway offers it.'}`,
    );
  }

  /** permission when the model's tier is above the key's (decision D3 for the message). */
  function requireTier(model: Model, keyTier: Tier): void {
    if (tierRank(model.tier) > tierRank(keyTier)) {
      throw forbidden(`Model '${model.id}' requires the '${model.tier}' tier; this key's tier is '${keyTier}'.`);
    }
  }

  return {
    models,
    listing: Buffer.from(JSON.stringify({ models })),
    modelFor(id, endpoint, tier) {
      const model = findModel(id);
      requireEndpoint(model, endpoint);
      if (tier !== undefined) requireTier(model, tier);
      return model;
    },
    editModel(tier) {
      const model = offering(IMAGE_EDIT);
      if (!model) throw invalidRequest(`No model of this gateway edits images: none lists ${IMAGE_EDIT} in GET /v1/models.`);
      requireTier(model, tier);
      return model;
    },
  };
}
