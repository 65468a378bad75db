/**
 * `ai-gateway keys create --tier <tier> [--name <name>]`: makes an API key in the configured store, as the
 * dashboard's Create New Key does (the same `issueKey`, the same rules for the name and the tier), and prints
 * it once on standard output, alone, so that a script can keep it (`KEY=$(ai-gateway keys create --tier pro)`);
 * what was made goes to standard error. The store keeps only the key's hash. An installed gateway starts
 * without the demo keys (decision D26): this, or the dashboard with the admin token, makes its first key.
 */
import { storeLabel, type ServerConfig } from './config.ts';
import { adminApi } from './dashboard/admin-api.ts';
import { issueKey } from './domain/keys.ts';
import { createStore } from './domain/store/index.ts';
import type { KeyTier } from '../contract/index.ts';

/** The name a key gets when none is given. */
const DEFAULT_NAME = 'Made on the command line';

/** Makes the key and prints it; resolves with the exit code (2 when it could not). */
export async function createKey(config: ServerConfig, given: { name?: string; tier?: string }): Promise<number> {
  const body = { name: (given.name ?? DEFAULT_NAME).trim(), tier: given.tier };
  if (given.tier === undefined) return refuse('give the tier of the key: --tier starter, economy, pro or ultimate.');
  const verdict = adminApi.validateRequestBody('createApiKey', body);
  if (!verdict.ok) return refuse(`${verdict.message}.`);
  if (config.store === 'memory') {
    return refuse("the memory store lasts only as long as the server that holds it: make the key in that server's dashboard.");
  }
  try {
    const store = await createStore(config.store, { poolSize: 1 });
    try {
      const { key, record } = await issueKey(store, body.name, body.tier as KeyTier);
      console.log(key);
      console.error(`Made key ${record.id} "${record.name}" (tier ${record.tier}) in ${storeLabel(config.store)}. It is shown this once: the store keeps only its hash.`);
      return 0;
    } finally {
      await store.close();
    }
  } catch (error) {
    return refuse((error as Error).message);
  }
}

function refuse(message: string): number {
  console.error(`keys: ${message}`);
  return 2;
}
