/**
 * `ai-gateway migrate` (`npm run migrate` in the repository): brings the configured store's schema up to date
 * and exits, for operators who apply migrations as a step of their own before starting (or upgrading) the
 * instances. The gateway does the same when it starts, so this is never required. It reads the same settings
 * as the server (`GATEWAY_STORE`, `GATEWAY_DATABASE_URL`, `GATEWAY_DB` or their flags).
 *
 *   GATEWAY_STORE=postgres GATEWAY_DATABASE_URL=postgres://… ai-gateway migrate
 */
import { storeLabel, type ServerConfig } from './config.ts';
import { migrateStore } from './domain/store/index.ts';

/** Migrates the store and says what it did; resolves with the exit code (2 when it could not). */
export async function migrate({ store }: ServerConfig): Promise<number> {
  try {
    const { applied, version } = await migrateStore(store);
    if (store === 'memory') console.log('The memory store has no schema to migrate.');
    else if (applied.length === 0) console.log(`${storeLabel(store)}: schema already at version ${version}.`);
    else console.log(`${storeLabel(store)}: applied migration${applied.length === 1 ? '' : 's'} ${applied.join(', ')}; schema at version ${version}.`);
    return 0;
  } catch (error) {
    console.error(`migrate: ${(error as Error).message}`);
    return 2;
  }
}
