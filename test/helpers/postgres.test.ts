/**
 * The PostgreSQL test helper: a real server, isolated databases on it, and a pause that clients see as the
 * database going away (the error codes a store has to treat as "database unavailable").
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDatabase, startPostgres, type RunningPostgres } from './postgres.ts';

describe('startPostgres', () => {
  let server: RunningPostgres;
  let first: pg.Pool;
  let second: pg.Pool;
  /** `code` of every error the first pool reported for its idle clients. */
  const idleErrors: Array<string | undefined> = [];

  beforeAll(async () => {
    server = await startPostgres();
    first = new pg.Pool({ connectionString: await createDatabase(server, 'first') });
    second = new pg.Pool({ connectionString: await createDatabase(server, 'second') });
    // Without a listener, an idle client's error (the server going away) would crash the test process.
    first.on('error', (error: Error & { code?: string }) => idleErrors.push(error.code));
    second.on('error', () => undefined);
  });

  afterAll(async () => {
    await Promise.all([first, second].map((pool) => (pool && !pool.ending ? pool.end() : undefined)));
    await server?.stop();
  });

  it('serves queries on 127.0.0.1', async () => {
    expect(server.url).toBe(`postgres://test:test@127.0.0.1:${server.port}/postgres`);
    expect((await first.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    expect((await second.query('SELECT current_database() AS name')).rows).toEqual([{ name: 'second' }]);
  });

  it('gives each database its own tables', async () => {
    await first.query('CREATE TABLE items (id int PRIMARY KEY)');
    await first.query('INSERT INTO items VALUES (1)');
    const exists = "SELECT to_regclass('public.items') IS NOT NULL AS exists";
    expect((await first.query(exists)).rows).toEqual([{ exists: true }]);
    expect((await second.query(exists)).rows).toEqual([{ exists: false }]);
  });

  it('refuses connections while paused, and serves the same data after resume', async () => {
    await first.query('SELECT 1'); // an idle client in the pool, to be told the server is going
    expect(first.idleCount).toBeGreaterThan(0);

    await server.pause();
    await vi.waitFor(() => expect(first.totalCount).toBe(0)); // the pool dropped its dead clients
    expect(idleErrors.length).toBeGreaterThan(0);
    expect(new Set(idleErrors)).toEqual(new Set(['57P01'])); // terminating connection due to administrator command
    await expect(first.query('SELECT 1')).rejects.toMatchObject({ code: 'ECONNREFUSED' });

    await server.resume();
    expect((await first.query('SELECT id FROM items')).rows).toEqual([{ id: 1 }]);
  });

  it('stop() ends the server', async () => {
    await Promise.all([first.end(), second.end()]);
    await server.stop();
    const client = new pg.Client({ connectionString: server.url });
    await expect(client.connect()).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
