/** GET /dashboard/api/keys — every key, newest first, with today's image usage; never a whole key. */
import { utcDay } from '../../day.ts';
import { keyView, newestFirst } from '../key-view.ts';
import type { DashboardHandler } from './types.ts';

export const listApiKeys: DashboardHandler = async (_request, reply, { gateway, demoKeys }) => {
  const day = utcDay(gateway.now());
  const keys = gateway.store
    .listKeys()
    .filter((record) => demoKeys || !record.demo)
    .sort(newestFirst)
    .map((record) => keyView(record, gateway.store, day));
  return reply.header('cache-control', 'no-store').send({ keys });
};
