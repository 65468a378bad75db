/** DELETE /v1/responses/{response_id} — forgets a response this key stored (decision D29). */
import type { components } from '../../../generated/schema.d.ts';
import { forgetResponse } from '../domain/stored-responses.ts';
import type { Handler } from '../context.ts';

export const deleteResponse: Handler = async (request, reply, { store }) => {
  const { response_id: id } = request.params as { response_id: string };
  await forgetResponse(store, id, request.apiKey!.id);
  return reply.send({ id, object: 'response.deleted', deleted: true } satisfies components['schemas']['ResponseDeleted']);
};
