/**
 * The PostgreSQL store, on a real PostgreSQL server (test/helpers/postgres.ts): the shared suite, and what
 * only a shared database has: migrations applied once by instances starting together, an old schema
 * upgraded, an exact quota across several connection pools, and a lost database answered as `unavailable`.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/server/domain/errors.ts';
import { createStore, type Store } from '../../src/server/domain/store/index.ts';
import { migratePostgres, postgresMigrations } from '../../src/server/domain/store/postgres-schema.ts';
import { createDatabase, startPostgres, type RunningPostgres } from '../helpers/postgres.ts';
import { describeStore } from './store-suite.ts';

let server: RunningPostgres;
let databases = 0;
/** A fresh, empty database on the test's server. */
const freshDatabase = () => createDatabase(server, `store_${databases++}`);
const quiet = { warn: () => undefined };

beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

describeStore('PostgreSQL', async () => createStore(await freshDatabase(), quiet));

/** The versions recorded as applied in a database. */
async function appliedVersions(url: string): Promise<number[]> {
  const pool = new pg.Pool({ connectionString: url });
  try {
    return (await pool.query<{ version: number }>('SELECT version FROM gateway_schema_migrations ORDER BY version')).rows.map((r) => r.version);
  } finally {
    await pool.end();
  }
}

describe('the PostgreSQL store on its own', () => {
  it('brings an empty database to the last schema, once, when three instances start at the same moment', async () => {
    const url = await freshDatabase();
    const stores = await Promise.all([1, 2, 3].map(() => createStore(url, quiet)));
    try {
      expect(await appliedVersions(url)).toEqual(postgresMigrations.map((m) => m.version));
      await stores[0]!.createKey({ id: 'k', name: 'Shared', tier: 'pro', prefix: 'sk-shared0', hash: 'h' });
      expect((await stores[2]!.findKeyByHash('h'))?.name).toBe('Shared');
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  it('upgrades a database of the first schema, keeping its keys and usage', async () => {
    const url = await freshDatabase();
    const pool = new pg.Pool({ connectionString: url });
    try {
      expect(await migratePostgres(pool, 1)).toEqual([1]);
      await pool.query("INSERT INTO api_keys (id, name, tier, prefix, hash, created_at) VALUES ('key_old', 'Old', 'pro', 'sk-old1234', 'old-hash', '2026-01-01T00:00:00Z')");
      await pool.query("INSERT INTO image_usage (key_id, day, used) VALUES ('key_old', '2026-01-01', 2)");
    } finally {
      await pool.end();
    }
    const store = await createStore(url, quiet);
    try {
      expect(await appliedVersions(url)).toEqual([1, 2]);
      expect((await store.findKeyByHash('old-hash'))?.createdAt).toBe('2026-01-01T00:00:00.000Z');
      expect(await store.imagesUsed('key_old', '2026-01-01')).toBe(2);
      await store.saveSession({ hash: 's', expiresAt: '2099-01-01T00:00:00.000Z' }, '2026-01-01T00:00:00.000Z', 10);
      expect(await store.sessionExpiry('s')).toBe('2099-01-01T00:00:00.000Z');
    } finally {
      await store.close();
    }
  });

  it('refuses a database whose schema is newer than it knows', async () => {
    const url = await freshDatabase();
    const pool = new pg.Pool({ connectionString: url });
    await migratePostgres(pool);
    await pool.query("INSERT INTO gateway_schema_migrations (version, name) VALUES (99, 'from the future')");
    await pool.end();
    await expect(createStore(url, quiet)).rejects.toThrow(/schema version 99, newer than this gateway's/);
  });

  it('grants exactly the quota to 150 reservations spread over three pools', async () => {
    const url = await freshDatabase();
    const stores: Store[] = await Promise.all([1, 2, 3].map(() => createStore(url, { ...quiet, poolSize: 5 })));
    try {
      const results = await Promise.all(Array.from({ length: 150 }, (_, i) => stores[i % 3]!.reserveImages('k', '2026-11-25', 1 + (i % 2), 50)));
      const granted = results.filter((r) => r.granted);
      const images = results.reduce((sum, r, i) => sum + (r.granted ? 1 + (i % 2) : 0), 0);
      expect(await stores[1]!.imagesUsed('k', '2026-11-25')).toBe(images);
      // Single images fit until the very end: the quota is filled exactly.
      expect(images).toBe(50);
      expect(granted.length).toBeGreaterThan(25);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  it('answers unavailable (Retry-After 2 s) while the database is down, and recovers when it is back', async () => {
    const url = await freshDatabase();
    const warnings: string[] = [];
    const store = await createStore(url, { warn: (message) => warnings.push(message) });
    try {
      await store.createKey({ id: 'k', name: 'Kept', tier: 'pro', prefix: 'sk-kept000', hash: 'h' });
      await server.pause();
      try {
        for (const call of [() => store.findKeyByHash('h'), () => store.reserveImages('k', '2026-11-25', 1, 3), () => store.listKeys()]) {
          const error = await call().then(() => undefined, (e: unknown) => e);
          expect(error).toBeInstanceOf(GatewayError);
          expect(error).toMatchObject({ kind: 'unavailable', retryAfterSeconds: 2 });
        }
      } finally {
        await server.resume();
      }
      expect((await store.findKeyByHash('h'))?.name).toBe('Kept');
      expect(warnings).toEqual([expect.stringContaining('the database cannot be reached'), 'the database is reachable again.']);
    } finally {
      await store.close();
    }
  });

  it('refuses to start when the database cannot be reached, naming it without its password', async () => {
    const url = new URL(await freshDatabase());
    url.port = '1'; // nothing listens there
    const error = await createStore(url.toString(), quiet).then(() => undefined, (e: Error) => e);
    expect(error?.message).toMatch(/^PostgreSQL at postgres:\/\/test:\*\*\*@127\.0\.0\.1:1\/store_\d+: .*ECONNREFUSED/);
    expect(error?.message).not.toContain(':test@');
  });
});
