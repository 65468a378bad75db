/**
 * Several gateway instances on one PostgreSQL database, as behind a load balancer: they share keys,
 * dashboard sessions and the daily image quota, which holds across all of them together; and a restart of
 * every instance loses none of it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dailyImageQuota } from '../../src/contract/index.ts';
import { createDatabase, startPostgres, type RunningPostgres } from '../helpers/postgres.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { call } from '../server/http.ts';

const ADMIN_TOKEN = 'instances-test-admin-token';
let database: RunningPostgres;
let url: string;
let instances: TestServer[] = [];

/** An instance of the gateway on the shared database, with small worker pools (three run at once). */
const instance = () =>
  startServer({ store: url, adminToken: ADMIN_TOKEN, logger: false, workers: { text: { workers: 1, queue: 64 }, images: { workers: 1, queue: 64 } } });

beforeAll(async () => {
  database = await startPostgres();
  url = await createDatabase(database, 'instances');
  instances = await Promise.all([instance(), instance(), instance()]);
}, 60_000);
afterAll(async () => {
  await Promise.all(instances.map((i) => i.close()));
  await database?.stop();
});

const admin = (i: number, method: string, path: string, body?: unknown) =>
  call(instances[i]!.baseUrl, method, `/dashboard/api${path}`, { headers: { 'x-admin-token': ADMIN_TOKEN }, body });
/** A new key of `tier`, made through instance `i`'s admin API. */
async function newKey(i: number, tier = 'economy'): Promise<{ key: string; id: string }> {
  const made = await admin(i, 'POST', '/keys', { name: `Team on instance ${i}`, tier });
  expect(made.status).toBe(201);
  return made.body as { key: string; id: string };
}
const image = (i: number, key: string) => call(instances[i]!.baseUrl, 'POST', '/v1/generation/image?model=image-gen', { key, body: { prompt: 'A lighthouse', size: '256x256' } });

describe('three instances on one database', () => {
  it('a key made through one instance works on the others at once', async () => {
    const { key, id: keyId } = await newKey(0);
    for (const i of [1, 2]) {
      const chat = await call(instances[i]!.baseUrl, 'POST', '/v1/chat/completions', { key, body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] } });
      expect(chat.status).toBe(200);
    }
    const listed = await admin(2, 'GET', '/keys');
    expect((listed.body as { keys: Array<{ id: string }> }).keys.map((k) => k.id)).toContain(keyId);
  });

  it("grants exactly the tier's daily quota to concurrent image requests spread over them", async () => {
    const { key, id: keyId } = await newKey(1);
    const quota = dailyImageQuota('economy');
    const answers = await Promise.all(Array.from({ length: quota * 3 }, (_, n) => image(n % 3, key)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(quota);
    expect(statuses.filter((s) => s === 429)).toHaveLength(quota * 2);
    // Every instance reads the same day's usage.
    for (const i of [0, 1, 2]) {
      const listed = await admin(i, 'GET', '/keys');
      const view = (listed.body as { keys: Array<{ id: string; imageUsage: { used: number } }> }).keys.find((k) => k.id === keyId)!;
      expect(view.imageUsage.used).toBe(quota);
    }
  });

  it('a dashboard session opened on one instance is valid on the others, and signing out ends it everywhere', async () => {
    const signIn = await fetch(`${instances[1]!.baseUrl}/dashboard/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: ADMIN_TOKEN }) });
    expect(signIn.status).toBe(204);
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    const onOther = await fetch(`${instances[2]!.baseUrl}/dashboard/api/keys`, { headers: { cookie } });
    expect(onOther.status).toBe(200);
    const origin = instances[0]!.baseUrl;
    const signOut = await fetch(`${origin}/dashboard/api/session`, { method: 'DELETE', headers: { cookie, origin } });
    expect(signOut.status).toBe(204);
    expect((await fetch(`${instances[2]!.baseUrl}/dashboard/api/keys`, { headers: { cookie } })).status).toBe(401);
  });

  it('keeps keys, the day’s usage and sessions when every instance restarts', async () => {
    const { key } = await newKey(2, 'starter');
    expect((await call(instances[0]!.baseUrl, 'POST', '/v1/generation/image?model=image-gen', { key, body: { prompt: 'Boats', size: '256x256', n: dailyImageQuota('starter') } })).status).toBe(200);
    const signIn = await fetch(`${instances[0]!.baseUrl}/dashboard/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: ADMIN_TOKEN }) });
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    await Promise.all(instances.map((i) => i.close()));
    instances = await Promise.all([instance(), instance(), instance()]);
    const refused = await image(2, key);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-ratelimit-remaining-images')).toBe('0');
    expect((await fetch(`${instances[1]!.baseUrl}/dashboard/api/keys`, { headers: { cookie } })).status).toBe(200);
  });

  it('a key revoked on one instance is refused by the others from the next request on', async () => {
    const { key, id: keyId } = await newKey(0);
    for (const i of [1, 2]) expect((await call(instances[i]!.baseUrl, 'GET', '/v1/models', { key })).status).toBe(200);
    expect((await admin(1, 'DELETE', `/keys/${keyId}`)).status).toBe(200);
    for (const i of [0, 2]) {
      const res = await call(instances[i]!.baseUrl, 'GET', '/v1/models', { key });
      expect(res.status).toBe(401);
    }
  });
});
