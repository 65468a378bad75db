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
  const known = store.listKeys().find((record) => record.id === keyId && (demoKeys || !record.demo));
  if (!known || !store.revokeKey(keyId, now())) throw notFound(`No API key has the id '${keyId}'.`);
  const revoked = store.listKeys().find((record) => record.id === keyId)!;
  return reply.header('cache-control', 'no-store').send(keyView(revoked, store, utcDay(now())));
};
