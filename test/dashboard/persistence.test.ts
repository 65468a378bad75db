// Keys, revocations and today's image usage survive a restart with the SQLite store, and the file never
// holds a key in plain text (only its hash and prefix).
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hashKey } from '../../src/server/domain/keys.ts';
import { startServer } from '../helpers/server.ts';
import { call } from '../server/http.ts';
import { ADMIN_TOKEN, admin, chatBody } from './admin.ts';

const dir = mkdtempSync(join(tmpdir(), 'gateway-dashboard-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NOW = new Date('2030-05-06T07:08:09Z');

describe('after a restart (SQLite store)', () => {
  it('keeps keys, revocations and image usage, and the key still works', async () => {
    const db = join(dir, 'gateway.sqlite');
    const options = { store: db, adminToken: ADMIN_TOKEN, now: () => NOW };

    const first = await startServer(options);
    let kept: { id: string; key: string };
    let revoked: { id: string; key: string };
    try {
      kept = (await admin(first.baseUrl, 'POST', '/keys', { body: { name: 'Survivor', tier: 'economy' } })).body;
      revoked = (await admin(first.baseUrl, 'POST', '/keys', { body: { name: 'Gone', tier: 'pro' } })).body;
      const image = await call(first.baseUrl, 'POST', '/v1/generation/image?model=image-gen', {
        key: kept.key,
        body: { prompt: 'A red bicycle', n: 3, size: '256x256' },
      });
      expect(image.status, image.text).toBe(200);
      expect((await admin(first.baseUrl, 'DELETE', `/keys/${revoked.id}`)).status).toBe(200);
    } finally {
      await first.close();
    }

    // What is on disk: hashes and prefixes, never a key.
    const files = readdirSync(dir).filter((name) => name.startsWith('gateway.sqlite'));
    const bytes = files.map((name) => readFileSync(join(dir, name)).toString('latin1')).join('');
    expect(bytes).toContain(hashKey(kept.key));
    expect(bytes).not.toContain(kept.key);
    expect(bytes).not.toContain(revoked.key);
    expect(bytes).not.toContain(kept.key.slice(10));

    const second = await startServer(options);
    try {
      const { keys } = (await admin(second.baseUrl, 'GET', '/keys')).body as { keys: Array<Record<string, unknown>> };
      expect(keys.find((k) => k.id === kept.id)).toMatchObject({
        name: 'Survivor',
        tier: 'economy',
        prefix: kept.key.slice(0, 10),
        lastUsedAt: NOW.toISOString(),
        revokedAt: null,
        imageUsage: { day: '2030-05-06', used: 3, quota: 10 },
      });
      expect(keys.find((k) => k.id === revoked.id)).toMatchObject({ name: 'Gone', revokedAt: NOW.toISOString() });
      expect(keys.filter((k) => k.demo)).toHaveLength(4);

      expect((await call(second.baseUrl, 'POST', '/v1/chat/completions', { key: kept.key, body: chatBody })).status).toBe(200);
      expect((await call(second.baseUrl, 'POST', '/v1/chat/completions', { key: revoked.key, body: chatBody })).status).toBe(401);
      // The quota goes on from where it was: 3 of 10 used, so 8 more is too many.
      const over = await call(second.baseUrl, 'POST', '/v1/generation/image?model=image-gen', {
        key: kept.key,
        body: { prompt: 'More bicycles', n: 8, size: '256x256' },
      });
      expect(over.status).toBe(429);
    } finally {
      await second.close();
    }
  });
});
