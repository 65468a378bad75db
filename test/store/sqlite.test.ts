/** The SQLite store: the shared suite, and what only a file has (restarts, permissions, old files, two processes). */
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createStore } from '../../src/server/domain/store/index.ts';
import { sqliteMigrations } from '../../src/server/domain/store/sqlite.ts';
import { issueKey } from '../../src/server/domain/keys.ts';
import { startServer } from '../helpers/server.ts';
import { call } from '../server/http.ts';
import { describeStore } from './store-suite.ts';

const dir = mkdtempSync(join(tmpdir(), 'gateway-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

describeStore('SQLite', () => createStore(join(dir, `suite-${files++}.sqlite`)));

describe('the SQLite store on its own', () => {
  it('keeps keys, image usage, responses and sessions across a restart, and stores no plain key', async () => {
    const file = join(dir, 'gateway.sqlite');
    const store = await createStore(file);
    const { key } = await issueKey(store, 'Frontend team', 'starter');
    await store.saveSession({ hash: 'session-hash', expiresAt: '2099-01-01T00:00:00.000Z' }, new Date().toISOString(), 10);
    const first = await startServer({ store });
    const used = await call(first.baseUrl, 'POST', '/v1/generation/image?model=image-gen', { key, body: { prompt: 'x', size: '256x256', n: 2 } });
    expect(used.status).toBe(200);
    await first.close();

    const second = await startServer({ store: file });
    try {
      const again = await call(second.baseUrl, 'POST', '/v1/generation/image?model=image-gen', { key, body: { prompt: 'y', size: '256x256', n: 2 } });
      expect(again.status).toBe(429); // 2 of 3 were used before the restart
      const last = await call(second.baseUrl, 'POST', '/v1/generation/image?model=image-gen', { key, body: { prompt: 'y', size: '256x256', n: 1 } });
      expect(last.status).toBe(200);
      expect(last.headers.get('x-ratelimit-remaining-images')).toBe('0');
    } finally {
      await second.close();
    }
    const reopened = await createStore(file);
    expect(await reopened.sessionExpiry('session-hash')).toBe('2099-01-01T00:00:00.000Z');
    await reopened.close();
    const bytes = readdirSync(dir).map((f) => readFileSync(join(dir, f)).toString('latin1')).join('');
    expect(bytes).not.toContain(key);
    expect(bytes).not.toContain('sk-demo-starter');
  });

  it('creates its file, and the WAL files beside it, readable by its owner only', async () => {
    const file = join(dir, 'private', 'gateway.sqlite');
    const store = await createStore(file);
    await issueKey(store, 'Ops', 'pro');
    try {
      for (const name of readdirSync(join(dir, 'private'))) expect(statSync(join(dir, 'private', name)).mode & 0o777, name).toBe(0o600);
      expect(readdirSync(join(dir, 'private'))).toContain('gateway.sqlite-wal');
      expect(statSync(join(dir, 'private')).mode & 0o777).toBe(0o700);
    } finally {
      await store.close();
    }
  });

  it('counts exactly under a burst of reservations on one file from two connections', async () => {
    const file = join(dir, 'burst.sqlite');
    const [a, b] = [await createStore(file), await createStore(file)];
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).reserveImages('k', '2026-01-01', 1, 25)));
    expect(results.filter((r) => r.granted)).toHaveLength(25);
    expect(await a.imagesUsed('k', '2026-01-01')).toBe(25);
    await a.close();
    await b.close();
  });

  it('upgrades a file made before the schema had versions, keeping what it holds', async () => {
    const file = join(dir, 'old.sqlite');
    // The tables as the gateway made them before sessions were stored (user_version 0).
    const old = new Database(file);
    old.exec(sqliteMigrations[0]!.sql);
    old.prepare("INSERT INTO api_keys (id, name, tier, prefix, hash, created_at) VALUES ('key_old', 'Old', 'pro', 'sk-old1234', 'old-hash', '2026-01-01T00:00:00.000Z')").run();
    old.prepare("INSERT INTO image_usage (key_id, day, used) VALUES ('key_old', '2026-01-01', 2)").run();
    expect(old.pragma('user_version', { simple: true })).toBe(0);
    old.close();

    const store = await createStore(file);
    try {
      expect((await store.findKeyByHash('old-hash'))?.name).toBe('Old');
      expect(await store.imagesUsed('key_old', '2026-01-01')).toBe(2);
      await store.saveSession({ hash: 'h', expiresAt: '2099-01-01T00:00:00.000Z' }, '2026-01-01T00:00:00.000Z', 10);
      expect(await store.sessionExpiry('h')).toBe('2099-01-01T00:00:00.000Z');
    } finally {
      await store.close();
    }
    const reopened = new Database(file);
    expect(reopened.pragma('user_version', { simple: true })).toBe(sqliteMigrations.at(-1)!.version);
    reopened.close();
  });

  it('refuses a file whose schema is newer than it knows', async () => {
    const file = join(dir, 'newer.sqlite');
    const newer = new Database(file);
    newer.pragma('user_version = 99');
    newer.close();
    await expect(createStore(file)).rejects.toThrow(/schema version 99, newer than this gateway's/);
  });
});
