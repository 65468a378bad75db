import { createMemoryStore } from './memory.ts';
import { createPostgresStore, migratePostgresDatabase } from './postgres.ts';
import { postgresMigrations } from './postgres-schema.ts';
import { createSqliteStore, migrateSqlite, openSqliteFile, sqliteMigrations } from './sqlite.ts';
import type { Store } from './types.ts';

export type { ApiKeyRecord, NewApiKey, Reservation, Store, StoredResponse, StoredSession } from './types.ts';

export interface StoreOptions {
  /** Connections at most, for PostgreSQL. */
  poolSize?: number;
  /** Where a networked store reports losing and finding its database. */
  warn?: (message: string) => void;
}

/** Whether a store location names a PostgreSQL database. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/**
 * `'memory'` for the in-memory store, a `postgres://` (or `postgresql://`) URL for PostgreSQL, anything else
 * is the path of a SQLite file. Opening brings the schema up to date.
 *
 * @example
 * const store = await createStore('postgres://gateway:secret@db.internal:5432/gateway', { poolSize: 20 });
 */
export async function createStore(location: string, options: StoreOptions = {}): Promise<Store> {
  if (location === 'memory') return createMemoryStore();
  if (isPostgresUrl(location)) return createPostgresStore({ url: location, ...options });
  return createSqliteStore(location);
}

/**
 * Brings a store's schema up to date without starting anything else (`npm run migrate`), and says what it
 * did: the versions applied now, and the version the schema is at.
 *
 * @example
 * await migrateStore('postgres://gateway:secret@db.internal:5432/gateway'); // { applied: [2], version: 2 }
 */
export async function migrateStore(location: string): Promise<{ applied: number[]; version: number }> {
  if (location === 'memory') return { applied: [], version: 0 };
  if (isPostgresUrl(location)) {
    return { applied: await migratePostgresDatabase(location), version: postgresMigrations.at(-1)!.version };
  }
  const db = openSqliteFile(location);
  try {
    return { applied: migrateSqlite(db), version: sqliteMigrations.at(-1)!.version };
  } finally {
    db.close();
  }
}
