/** GET /v1/models — the catalogue (decision D13: public; an unknown key is still refused). */
import type { Handler } from '../context.ts';

// Not an async function: the answer is sent at once, and an async function's promise, resolved with the reply
// (a thenable), would cost two more turns of the microtask queue to settle on every listing.
export const listModels: Handler = (_request, reply, { catalogue }) => reply.type('application/json; charset=utf-8').send(catalogue.listing);
