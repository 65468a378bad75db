/**
 * A reference server on each store, for the quota path: memory (the baseline: no storage at all), a SQLite
 * file made for this run, and the database of the PostgreSQL server `postgres-entry.ts` runs. Each server
 * issues its own keys into its own store, in a process of its own, compiled as `npm start` runs it.
 */
import { join } from 'node:path';
import type { ServerProcess, SpawnOptions } from './processes.ts';
import { startEntry } from './processes.ts';
import type { StoreName } from './results.ts';
import type { BenchSettings } from './settings.ts';

export interface StoreServer {
  store: StoreName;
  server: ServerProcess;
}

/**
 * Starts the three servers at once (issuing keys into a database takes a while); if one fails, the others
 * are stopped again.
 *
 * @example
 *   const servers = await startStoreServers({ postgresUrl, sqliteDir: '/tmp/bench-quota-x', settings: fullSettings.quota });
 */
export async function startStoreServers(options: {
  postgresUrl: string;
  /** The folder the SQLite file is made in (removed by the caller). */
  sqliteDir: string;
  settings: BenchSettings['quota'];
  spawn?: SpawnOptions;
}): Promise<StoreServer[]> {
  const locations: Record<StoreName, string> = {
    memory: 'memory',
    sqlite: join(options.sqliteDir, 'quota.sqlite'),
    postgres: options.postgresUrl,
  };
  const keys = ['--image-keys', String(options.settings.keys), '--spent-keys', String(options.settings.spentKeys)];
  const started = await Promise.allSettled(
    (Object.keys(locations) as StoreName[]).map(async (store) => ({
      store,
      // Issuing thousands of keys one statement at a time (a commit each on SQLite) takes seconds.
      server: await startEntry(`quota on ${store}`, 'scripts/bench/reference-entry.ts', [...keys, '--store', locations[store]], {
        ...options.spawn,
        compiled: true,
        timeoutS: 120,
      }),
    })),
  );
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  const servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  if (failed) {
    await Promise.all(servers.map((s) => s.server.close()));
    throw failed.reason;
  }
  return servers;
}
