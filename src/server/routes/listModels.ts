/** GET /v1/models — the catalogue (decision D13: public; an unknown key is still refused). */
import { models } from '../domain/catalogue.ts';
import type { Handler } from '../context.ts';

/** Serialised once: the catalogue never changes while the server runs. */
const listing = JSON.stringify({ models });

export const listModels: Handler = async (_request, reply) => reply.type('application/json').send(listing);
