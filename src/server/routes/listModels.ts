/** GET /v1/models — the catalogue (decision D13: public; an unknown key is still refused). */
import type { Handler } from '../context.ts';

export const listModels: Handler = async (_request, reply, { catalogue }) => reply.type('application/json').send(catalogue.listing);
