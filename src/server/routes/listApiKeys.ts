/** GET /dashboard/api/keys — every key, newest first, with today's image usage; never a whole key. */
import { keyView, newestFirst } from '../dashboard/key-view.ts';
import { utcDay } from '../domain/day.ts';
import type { Handler } from '../context.ts';

export const listApiKeys: Handler = async (_request, reply, { store, now, demoKeys }) => {
  const day = utcDay(now());
  const records = (await store.listKeys()).filter((record) => demoKeys || !record.demo).sort(newestFirst);
  const keys = await Promise.all(records.map((record) => keyView(record, store, day)));
  return reply.header('cache-control', 'no-store').send({ keys });
};
