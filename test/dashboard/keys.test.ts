// Creating, listing and revoking keys through the dashboard's operations, over real HTTP. Every answer
// is also checked against the contract on its way out (startServer's close() fails on a violation).
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { dailyImageQuota } from '../../src/contract/index.ts';
import { adminApi } from '../../src/server/dashboard/admin-api.ts';
import { startServer, useServer } from '../helpers/server.ts';
import { call } from '../server/http.ts';
import { ADMIN_TOKEN, admin, chatBody } from './admin.ts';

const NOW = new Date('2030-03-04T10:20:30Z');
const server = useServer({ adminToken: ADMIN_TOKEN, now: () => NOW });

interface ApiKey {
  id: string;
  name: string;
  tier: string;
  prefix: string;
  demo: boolean;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  imageUsage: { day: string; used: number; quota: number };
}

async function create(name: string, tier: string) {
  const res = await admin<ApiKey & { key: string }>(server.baseUrl, 'POST', '/keys', { body: { name, tier } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function list(): Promise<ApiKey[]> {
  const res = await admin<{ keys: ApiKey[] }>(server.baseUrl, 'GET', '/keys');
  expect(res.status).toBe(200);
  return res.body.keys;
}

describe('Create New Key', () => {
  it.each(['starter', 'economy', 'pro', 'ultimate'])('makes a working %s key and shows it whole this once', async (tier) => {
    const res = await admin(server.baseUrl, 'POST', '/keys', { body: { name: `App on ${tier}`, tier } });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const { key, prefix, ...record } = res.body;
    expect(key).toMatch(/^sk-[0-9A-Za-z]{40}$/);
    expect(prefix).toBe(key.slice(0, 10));
    expect(record).toMatchObject({
      name: `App on ${tier}`,
      tier,
      demo: false,
      lastUsedAt: null,
      revokedAt: null,
      imageUsage: { day: '2030-03-04', used: 0, quota: dailyImageQuota(tier as 'pro') },
    });
    const chat = await call(server.baseUrl, 'POST', '/v1/chat/completions', { key, body: chatBody });
    expect(chat.status).toBe(200);
  });

  it('makes a different key every time, even for the same name', async () => {
    const a = await create('Twin', 'pro');
    const b = await create('Twin', 'pro');
    expect(a.key).not.toBe(b.key);
    expect(a.id).not.toBe(b.id);
  });

  it('trims the name', async () => {
    expect((await create('  Spaced out  ', 'starter')).name).toBe('Spaced out');
  });

  it.each([
    ['the free tier', { name: 'Free', tier: 'free' }, 'Invalid request body: /tier must be one of "starter", "economy", "pro", "ultimate".'],
    ['no name', { tier: 'pro' }, "Invalid request body: (root) must have required property 'name'."],
    ['a blank name', { name: '   ', tier: 'pro' }, /^Invalid request body: \/name must match pattern/],
    ['a name too long', { name: 'x'.repeat(65), tier: 'pro' }, /^Invalid request body: \/name must NOT have more than 64 characters/],
    ['no tier', { name: 'No tier' }, "Invalid request body: (root) must have required property 'tier'."],
    ['an unknown field', { name: 'Extra', tier: 'pro', key: 'sk-mine' }, "Invalid request body: (root) has unknown property 'key'."],
  ])('answers 400 for %s', async (_label, body, message) => {
    const before = (await list()).length;
    const res = await admin(server.baseUrl, 'POST', '/keys', { body });
    expect(res.status).toBe(400);
    if (typeof message === 'string') expect(res.body).toEqual({ error: message });
    else expect(res.body.error).toMatch(message);
    expect((await list()).length).toBe(before);
  });

  it('documents the same message for the free tier as it sends', () => {
    const examples = adminApi.getOperation('createApiKey').responses['400']!.content!['application/json']!.examples!;
    const values = Object.values(examples).map((e) => (adminApi.deref<{ value: unknown }>(e).value as { error: string }).error);
    expect(values).toContain('Invalid request body: /tier must be one of "starter", "economy", "pro", "ultimate".');
    expect(values).toContain("Invalid request body: (root) must have required property 'name'.");
  });
});

describe('the key list', () => {
  it('shows the keys made here newest first, then the demo keys, by prefix only, never the whole key', async () => {
    const made = await create('Listed', 'economy');
    const res = await admin(server.baseUrl, 'GET', '/keys');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.text).not.toContain(made.key);
    const keys = res.body.keys as ApiKey[];
    const { key: _whole, ...record } = made;
    expect(keys.find((k) => k.id === made.id)).toEqual(record);
    const createdAts = keys.filter((k) => !k.demo).map((k) => k.createdAt);
    expect(createdAts).toEqual([...createdAts].sort().reverse());
    expect(keys.slice(-4).map((k) => [k.demo, k.prefix])).toEqual([
      [true, 'sk-demo-st'],
      [true, 'sk-demo-ec'],
      [true, 'sk-demo-pr'],
      [true, 'sk-demo-ul'],
    ]);
  });

  it("counts today's images against the tier's quota, and notes the last use", async () => {
    const made = await create('Image maker', 'starter');
    const image = await call(server.baseUrl, 'POST', '/v1/generation/image?model=image-gen', {
      key: made.key,
      body: { prompt: 'A lighthouse at dusk', n: 2, size: '256x256' },
    });
    expect(image.status, image.text).toBe(200);
    const shown = (await list()).find((k) => k.id === made.id)!;
    expect(shown.imageUsage).toEqual({ day: '2030-03-04', used: 2, quota: 3 });
    expect(shown.lastUsedAt).toBe(NOW.toISOString());
  });

  it('leaves out the demo keys when the server does not accept them', async () => {
    const off = await startServer({ adminToken: ADMIN_TOKEN, demoKeys: false });
    try {
      const res = await admin(off.baseUrl, 'GET', '/keys');
      expect(res.body).toEqual({ keys: [] });
      expect((await admin(off.baseUrl, 'DELETE', '/keys/demo-pro')).status).toBe(404);
    } finally {
      await off.close();
    }
  });
});

describe('revoking', () => {
  it('makes the key answer 401 at once, on every endpoint, and keeps it listed as revoked', async () => {
    const made = await create('Short-lived', 'pro');
    expect((await call(server.baseUrl, 'POST', '/v1/chat/completions', { bearer: made.key, body: chatBody })).status).toBe(200);

    const res = await admin<ApiKey>(server.baseUrl, 'DELETE', `/keys/${made.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: made.id, name: 'Short-lived', revokedAt: NOW.toISOString() });

    for (const auth of [{ key: made.key }, { bearer: made.key }]) {
      const chat = await call(server.baseUrl, 'POST', '/v1/chat/completions', { ...auth, body: chatBody });
      expect(chat.status).toBe(401);
      expect(chat.body).toEqual({ error: 'Invalid API Key.' });
    }
    const prompt = await call(server.baseUrl, 'POST', '/v1/generation/prompt', { key: made.key, body: { prompt: 'Hi', model: 'gpt-4o-mini' } });
    expect(prompt.status).toBe(401);
    expect((await call(server.baseUrl, 'GET', '/v1/models', { key: made.key })).status).toBe(401);
    expect((await list()).find((k) => k.id === made.id)!.revokedAt).toBe(NOW.toISOString());
  });

  it('leaves other keys working', async () => {
    const keep = await create('Keeper', 'starter');
    const drop = await create('Dropped', 'starter');
    await admin(server.baseUrl, 'DELETE', `/keys/${drop.id}`);
    expect((await call(server.baseUrl, 'POST', '/v1/chat/completions', { key: keep.key, body: chatBody })).status).toBe(200);
  });

  it('answers the same record when revoked again', async () => {
    const made = await create('Twice', 'economy');
    const first = await admin(server.baseUrl, 'DELETE', `/keys/${made.id}`);
    const second = await admin(server.baseUrl, 'DELETE', `/keys/${made.id}`);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
  });

  it('answers 404 for an unknown id', async () => {
    const res = await admin(server.baseUrl, 'DELETE', '/keys/key_0000000000000000');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "No API key has the id 'key_0000000000000000'." });
  });

  it('can revoke a demo key', async () => {
    const fresh = await startServer({ adminToken: ADMIN_TOKEN });
    try {
      expect((await admin(fresh.baseUrl, 'DELETE', '/keys/demo-ultimate')).status).toBe(200);
      expect((await call(fresh.baseUrl, 'POST', '/v1/chat/completions', { key: 'sk-demo-ultimate', body: chatBody })).status).toBe(401);
      expect((await call(fresh.baseUrl, 'POST', '/v1/chat/completions', { key: 'sk-demo-pro', body: chatBody })).status).toBe(200);
    } finally {
      await fresh.close();
    }
  });
});

describe('no key in plain text in the logs', () => {
  it('logs neither a new key nor the admin token, even at trace level', async () => {
    let log = '';
    const sink = new Writable({
      write(chunk, _encoding, done) {
        log += String(chunk);
        done();
      },
    });
    const traced = await startServer({ adminToken: ADMIN_TOKEN, logger: { level: 'trace', stream: sink } });
    let key = '';
    try {
      const made = await admin(traced.baseUrl, 'POST', '/keys', { body: { name: 'Logged?', tier: 'pro' } });
      key = made.body.key;
      await call(traced.baseUrl, 'POST', '/v1/chat/completions', { key, body: chatBody });
      await call(traced.baseUrl, 'POST', '/v1/chat/completions', { key, raw: '{not json' });
      await admin(traced.baseUrl, 'DELETE', `/keys/${made.body.id}`);
      await call(traced.baseUrl, 'POST', '/v1/chat/completions', { key, body: chatBody });
    } finally {
      await traced.close();
    }
    expect(key).toMatch(/^sk-/);
    expect(log.length).toBeGreaterThan(0);
    expect(log).not.toContain(key);
    expect(log).not.toContain(key.slice(3));
    expect(log).not.toContain(ADMIN_TOKEN);
  });
});
