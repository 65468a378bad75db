/**
 * DELETE /dashboard/api/keys/{keyId} — revokes a key. Authentication reads the store on every request
 * (no cache), so the key answers 401 from the very next request on.
 */
import { keyView } from '../dashboard/key-view.ts';
import { utcDay } from '../domain/day.ts';
import { notFound } from '../domain/errors.ts';
import type { Handler } from '../context.ts';

export const revokeApiKey: Handler = async (request, reply, { store, now, demoKeys }) => {
  const { keyId } = request.params as { keyId: string };
  const known = await store.findKey(keyId);
  if (!known || (known.demo && !demoKeys) || !(await store.revokeKey(keyId, now()))) throw notFound(`No API key has the id '${keyId}'.`);
  const revoked = (await store.findKey(keyId))!;
  return reply.header('cache-control', 'no-store').send(await keyView(revoked, store, utcDay(now())));
};
