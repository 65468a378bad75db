import { createMemoryStore } from './memory.ts';
import { createSqliteStore } from './sqlite.ts';
import type { Store } from './types.ts';

export type { ApiKeyRecord, NewApiKey, Reservation, Store, StoredResponse } from './types.ts';

/** `'memory'` for the in-memory store, anything else is the path of a SQLite file. */
export function createStore(location: string): Store {
  return location === 'memory' ? createMemoryStore() : createSqliteStore(location);
}
