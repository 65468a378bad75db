/**
 * The server started as an operator starts it, with a catalogue file: what it says (where the models' answers
 * come from, never a key), that it serves the file's models from their upstream, and that a file it cannot use
 * stops the start with exit code 2, the path and the reason.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/paths.ts';
import { startGatewayProcess } from '../helpers/gateway-process.ts';
import { startServer } from '../helpers/server.ts';
import { call } from '../server/http.ts';

const dir = mkdtempSync(join(tmpdir(), 'catalogue-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const main = ['--import', 'tsx', 'src/server/main.ts', '--port', '0', '--store', 'memory'];
const ADMIN_TOKEN = 'upstream-admin-token-0123456789';

function catalogueFile(name: string, upstreamBaseUrl: string): string {
  const path = join(dir, name);
  const model = (id: string, extra: object) => ({
    id,
    name: id,
    provider: 'Upstream Inc.',
    category: 'Chat',
    description: 'A model.',
    endpoints: ['/v1/chat/completions', '/v1/messages'],
    tier: 'free',
    multiplier: 1,
    ...extra,
  });
  const upstream = { protocol: 'openai-chat', base_url: upstreamBaseUrl, api_key_env: 'UPSTREAM_KEY', model: 'gpt-4o-mini' };
  writeFileSync(path, JSON.stringify({ models: [model('house-chat', { upstream }), model('llama-3.1-8b-instruct', {})] }));
  return path;
}

describe('GATEWAY_CATALOGUE', () => {
  it('serves the file\'s models, the upstream\'s answers for those that have one, and names no key', async () => {
    // The upstream's key is one of its own, made for the operator, so that the banner's demo keys cannot hide it.
    const upstream = await startServer({ adminToken: ADMIN_TOKEN });
    const made = await call(upstream.baseUrl, 'POST', '/dashboard/api/keys', { headers: { 'x-admin-token': ADMIN_TOKEN }, body: { name: 'Gateway', tier: 'ultimate' } });
    const UPSTREAM_KEY = (made.body as { key: string }).key;
    const path = catalogueFile('catalogue.json', `${upstream.baseUrl}/v1`);
    const gateway = await startGatewayProcess(process.execPath, main, { cwd: root, env: { ...process.env, GATEWAY_CATALOGUE: path, UPSTREAM_KEY } });
    const { baseUrl } = gateway;
    const output = gateway.output();
    try {
      expect(output).toContain(`Models:         2 from ${path}; 1 on the built-in engine; upstream openai-chat ${upstream.baseUrl}/v1`);
      expect(output).not.toContain(UPSTREAM_KEY);
      const listing = (await (await fetch(`${baseUrl}/v1/models`)).json()) as { models: Array<{ id: string }> };
      expect(listing.models.map((m) => m.id)).toEqual(['house-chat', 'llama-3.1-8b-instruct']);
      const body = { model: 'house-chat', messages: [{ role: 'user', content: 'What is a lighthouse?' }], max_tokens: 30 };
      const viaGateway = await fetch(`${baseUrl}/v1/chat/completions`, { method: 'POST', headers: { 'x-api-key': 'sk-demo-starter', 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const direct = await fetch(`${upstream.baseUrl}/v1/chat/completions`, { method: 'POST', headers: { 'x-api-key': UPSTREAM_KEY, 'content-type': 'application/json' }, body: JSON.stringify({ ...body, model: 'gpt-4o-mini' }) });
      type Completion = { model: string; choices: Array<{ message: { content: string } }> };
      const [a, b] = (await Promise.all([viaGateway.json(), direct.json()])) as [Completion, Completion];
      expect(viaGateway.status).toBe(200);
      // The upstream's (deterministic) answer, under the gateway's model id.
      expect(a.choices[0]!.message.content).toBe(b.choices[0]!.message.content);
      expect(a.model).toBe('house-chat');
      expect(await gateway.stop()).toBe(0);
    } finally {
      gateway.child.kill('SIGKILL');
      await upstream.close();
    }
  });

  it('stops the start, exit code 2, with the path and the reason, for a file it cannot use', () => {
    const start = (env: Record<string, string>, args: string[] = []) => spawnSync(process.execPath, [...main, ...args], { cwd: root, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 30_000 });
    const broken = join(dir, 'broken.yaml');
    writeFileSync(broken, 'models:\n  - id: x\n');
    const bad = start({}, ['--catalogue', broken]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(new RegExp(`^gateway: catalogue ${broken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: /models/0 must have required property`));
    expect(bad.stdout).not.toContain('listening');
    const keyless = start({ GATEWAY_CATALOGUE: catalogueFile('keyless.json', 'http://127.0.0.1:9/v1'), UPSTREAM_KEY: '' });
    expect(keyless.status).toBe(2);
    expect(keyless.stderr).toContain("(house-chat): its upstream's key variable UPSTREAM_KEY is not set");
    const missing = start({ GATEWAY_CATALOGUE: join(dir, 'nowhere.yaml') });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain(`gateway: catalogue ${join(dir, 'nowhere.yaml')}: cannot be read (ENOENT)`);
  });
});
