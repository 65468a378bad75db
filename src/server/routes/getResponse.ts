/** GET /v1/responses/{response_id} — a response this key stored (decision D29). */
import { storedResponse } from '../domain/stored-responses.ts';
import type { Handler } from '../context.ts';

export const getResponse: Handler = async (request, reply, { store, now }) => {
  const { response_id: id } = request.params as { response_id: string };
  return reply.send((await storedResponse(store, id, request.apiKey!.id, now())).response);
};
