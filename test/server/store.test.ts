import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createStore } from '../../src/server/domain/store/index.ts';
import { issueKey } from '../../src/server/domain/keys.ts';
import { startServer } from '../helpers/server.ts';
import { call } from './http.ts';

const dir = mkdtempSync(join(tmpdir(), 'gateway-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the SQLite store', () => {
  it('keeps keys and image usage across a restart, and stores no plain key', async () => {
    const file = join(dir, 'gateway.sqlite');
    const store = createStore(file);
    const { key } = issueKey(store, 'Frontend team', 'starter');
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
    const bytes = readdirSync(dir).map((f) => readFileSync(join(dir, f)).toString('latin1')).join('');
    expect(bytes).not.toContain(key);
    expect(bytes).not.toContain('sk-demo-starter');
  });

  it('creates its file, and the WAL files beside it, readable by its owner only', () => {
    const file = join(dir, 'private', 'gateway.sqlite');
    const store = createStore(file);
    issueKey(store, 'Ops', 'pro');
    try {
      for (const name of readdirSync(join(dir, 'private'))) expect(statSync(join(dir, 'private', name)).mode & 0o777, name).toBe(0o600);
      expect(readdirSync(join(dir, 'private'))).toContain('gateway.sqlite-wal');
      expect(statSync(join(dir, 'private')).mode & 0o777).toBe(0o700);
    } finally {
      store.close();
    }
  });

  it('counts exactly under a burst of reservations on one file from two connections', () => {
    const file = join(dir, 'burst.sqlite');
    const a = createStore(file);
    const b = createStore(file);
    let granted = 0;
    for (let i = 0; i < 40; i++) if ((i % 2 ? a : b).reserveImages('k', '2026-01-01', 1, 25).granted) granted++;
    expect(granted).toBe(25);
    expect(a.imagesUsed('k', '2026-01-01')).toBe(25);
    a.close();
    b.close();
  });
});

describe('both stores', () => {
  it.each(['memory', 'sqlite'])('hand out copies of key records, without the hash (%s)', (kind) => {
    const store = createStore(kind === 'memory' ? 'memory' : join(dir, 'records.sqlite'));
    try {
      const { record } = issueKey(store, 'Copies', 'pro');
      const listed = store.listKeys().find((k) => k.id === record.id)!;
      expect(Object.keys(listed).sort()).toEqual(['createdAt', 'demo', 'id', 'lastUsedAt', 'name', 'prefix', 'revokedAt', 'tier']);
      listed.name = 'changed by a caller';
      expect(store.listKeys().find((k) => k.id === record.id)!.name).toBe('Copies');
    } finally {
      store.close();
    }
  });
});

describe('stored responses (D29)', () => {
  it.each(['memory', 'sqlite'])('keep a response for its key only, forget it when deleted or expired (%s)', (kind) => {
    const path = join(dir, 'responses.sqlite');
    const store = createStore(kind === 'memory' ? 'memory' : path);
    const record = (id: string, createdAt: string) => ({ id, keyId: 'key-a', createdAt, response: { id, output: [] }, items: [{ role: 'user', content: 'Hi' }] });
    try {
      store.saveResponse(record('resp_old', '2026-10-01T00:00:00.000Z'), '2026-09-01T00:00:00.000Z');
      store.saveResponse(record('resp_new', '2026-11-20T00:00:00.000Z'), '2026-09-01T00:00:00.000Z');
      expect(store.findResponse('resp_new', 'key-a')).toEqual(record('resp_new', '2026-11-20T00:00:00.000Z'));
      expect(store.findResponse('resp_new', 'key-b')).toBeUndefined();
      expect(store.deleteResponse('resp_new', 'key-b')).toBe(false);
      // Saving expires what was created before the cut-off.
      store.saveResponse(record('resp_latest', '2026-11-25T00:00:00.000Z'), '2026-10-26T00:00:00.000Z');
      expect(store.findResponse('resp_old', 'key-a')).toBeUndefined();
      expect(store.deleteResponse('resp_new', 'key-a')).toBe(true);
      expect(store.findResponse('resp_new', 'key-a')).toBeUndefined();
      // A copy: changing what was returned changes nothing kept.
      (store.findResponse('resp_latest', 'key-a')!.items as unknown[]).push('changed');
      expect(store.findResponse('resp_latest', 'key-a')!.items).toHaveLength(1);
    } finally {
      store.close();
    }
  });

  it('survive a restart of the SQLite store', () => {
    const path = join(dir, 'responses-restart.sqlite');
    const first = createStore(path);
    first.saveResponse({ id: 'resp_kept', keyId: 'key-a', createdAt: new Date().toISOString(), response: { id: 'resp_kept' }, items: [] }, '2000-01-01T00:00:00.000Z');
    first.close();
    const second = createStore(path);
    try {
      expect(second.findResponse('resp_kept', 'key-a')?.response).toEqual({ id: 'resp_kept' });
    } finally {
      second.close();
    }
  });
});
