/**
 * DELETE /dashboard/api/keys/{keyId} — revokes a key. Authentication reads the store on every request
 * (no cache), so the key answers 401 from the very next request on.
 */
import { utcDay } from '../../day.ts';
import { HttpError } from '../../http-error.ts';
import { keyView } from '../key-view.ts';
import type { DashboardHandler } from './types.ts';

export const revokeApiKey: DashboardHandler = async (request, reply, { gateway, demoKeys }) => {
  const { keyId } = request.params as { keyId: string };
  const { store } = gateway;
  const known = store.listKeys().find((record) => record.id === keyId && (demoKeys || !record.demo));
  if (!known || !store.revokeKey(keyId, gateway.now())) throw new HttpError(404, `No API key has the id '${keyId}'.`);
  const revoked = store.listKeys().find((record) => record.id === keyId)!;
  return reply.header('cache-control', 'no-store').send(keyView(revoked, store, utcDay(gateway.now())));
};
