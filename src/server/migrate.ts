/**
 * `npm run migrate`: brings the configured store's schema up to date and exits, for operators who apply
 * migrations as a step of their own before starting (or upgrading) the instances. The gateway does the
 * same when it starts, so this is never required. It reads the same settings as the server
 * (`GATEWAY_STORE`, `GATEWAY_DATABASE_URL`, `GATEWAY_DB` or their flags).
 *
 *   GATEWAY_STORE=postgres GATEWAY_DATABASE_URL=postgres://… npm run migrate
 */
import { readConfig } from './config.ts';
import { isPostgresUrl, migrateStore } from './domain/store/index.ts';
import { redacted } from './domain/store/postgres.ts';

try {
  const { store } = readConfig(process.argv.slice(2), process.env);
  const where = store === 'memory' ? 'the memory store' : isPostgresUrl(store) ? `PostgreSQL ${redacted(store)}` : `SQLite file ${store}`;
  const { applied, version } = await migrateStore(store);
  if (store === 'memory') console.log('The memory store has no schema to migrate.');
  else if (applied.length === 0) console.log(`${where}: schema already at version ${version}.`);
  else console.log(`${where}: applied migration${applied.length === 1 ? '' : 's'} ${applied.join(', ')}; schema at version ${version}.`);
} catch (error) {
  console.error(`migrate: ${(error as Error).message}`);
  process.exitCode = 2;
}
