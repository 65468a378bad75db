/**
 * The database stops during traffic and comes back: while it is gone, every request that needs it answers
 * 503 with `Retry-After` in the operation's error shape (never a 500, never a crash), the public listing
 * still answers, and afterwards the instances serve again by themselves with the quota exact.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, startPostgres, type RunningPostgres } from '../helpers/postgres.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { call, type Answer } from '../server/http.ts';

const ADMIN_TOKEN = 'outage-test-admin-token-0123';
let database: RunningPostgres;
let instances: TestServer[] = [];

beforeAll(async () => {
  database = await startPostgres();
  const url = await createDatabase(database, 'outage');
  const instance = () => startServer({ store: url, adminToken: ADMIN_TOKEN, workers: { text: { workers: 1, queue: 64 }, images: { workers: 1, queue: 64 } } });
  instances = await Promise.all([instance(), instance()]);
}, 60_000);
afterAll(async () => {
  await Promise.all(instances.map((i) => i.close()));
  await database?.stop();
});

/** Resolves once `seen()` holds, checking after each answer of the traffic (no clock involved). */
function until(seen: () => boolean, answered: Array<() => void>): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (!seen()) return;
      answered.splice(answered.indexOf(check), 1);
      resolve();
    };
    answered.push(check);
  });
}

describe('a database outage during traffic', () => {
  it('answers 503 with Retry-After while the database is gone, and recovers with the quota exact', async () => {
    const made = await call(instances[0]!.baseUrl, 'POST', '/dashboard/api/keys', { headers: { 'x-admin-token': ADMIN_TOKEN }, body: { name: 'Traffic', tier: 'ultimate' } });
    const { key, id } = made.body as { key: string; id: string };
    const answers: Array<{ phase: string; path: string; res: Answer }> = [];
    const answered: Array<() => void> = [];
    let phase = 'before';
    let running = true;

    const requests = [
      (base: string) => ['/v1/generation/image', call(base, 'POST', '/v1/generation/image?model=image-gen', { key, body: { prompt: 'A harbour', size: '256x256' } })] as const,
      (base: string) => ['/v1/chat/completions', call(base, 'POST', '/v1/chat/completions', { key, body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] } })] as const,
      (base: string) => ['/v1/messages', call(base, 'POST', '/v1/messages', { key, body: { model: 'gpt-4o-mini', max_tokens: 20, messages: [{ role: 'user', content: 'Hi' }] } })] as const,
      (base: string) => ['/v1/models', call(base, 'GET', '/v1/models')] as const,
    ];
    const loop = async (worker: number) => {
      for (let n = worker; running; n++) {
        const [path, pending] = requests[n % requests.length]!(instances[n % instances.length]!.baseUrl);
        const at = phase;
        answers.push({ phase: at, path, res: await pending });
        for (const check of [...answered]) check();
      }
    };
    const traffic = Promise.all([0, 1, 2, 3].map(loop));
    const count = (p: string, status: number, path?: string) => answers.filter((a) => a.phase === p && a.res.status === status && (!path || a.path === path)).length;

    await until(() => count('before', 200, '/v1/generation/image') >= 3, answered);
    phase = 'down';
    await database.pause();
    await until(() => count('down', 503) >= 12 && count('down', 200, '/v1/models') >= 2, answered);
    phase = 'back';
    await database.resume();
    await until(() => count('back', 200, '/v1/generation/image') >= 3 && count('back', 200, '/v1/messages') >= 1, answered);
    running = false;
    await traffic;

    // Never a 500; while the database is gone, a 503 of the operation's own shape with Retry-After.
    expect(answers.filter((a) => a.res.status >= 500 && a.res.status !== 503)).toEqual([]);
    const unavailable = answers.filter((a) => a.res.status === 503);
    expect(unavailable.length).toBeGreaterThanOrEqual(12);
    for (const { path, res } of unavailable) {
      expect(res.headers.get('retry-after')).toBe('2');
      const message = "The gateway's database cannot be reached; try again in 2 seconds.";
      expect(res.body).toEqual(path === '/v1/messages' ? { type: 'error', error: { type: 'overloaded_error', message } } : { error: message });
    }
    // The public listing needs no database.
    expect(answers.filter((a) => a.path === '/v1/models').every((a) => a.res.status === 200)).toBe(true);

    // Nothing lost, nothing granted twice: the day's usage is the number of pictures answered.
    const pictures = answers.filter((a) => a.path === '/v1/generation/image' && a.res.status === 200).length;
    const listed = await call(instances[1]!.baseUrl, 'GET', '/dashboard/api/keys', { headers: { 'x-admin-token': ADMIN_TOKEN } });
    const view = (listed.body as { keys: Array<{ id: string; imageUsage: { used: number } }> }).keys.find((k) => k.id === id)!;
    expect(view.imageUsage.used).toBe(pictures);
  });
});
