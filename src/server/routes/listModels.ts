/** GET /v1/models — the catalogue, serialised once. */
import { listingJson } from '../catalogue.ts';
import type { Handler } from './types.ts';

export const listModels: Handler = async (_request, reply) => {
  reply.type('application/json').send(listingJson);
};
