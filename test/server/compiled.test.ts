/**
 * `npm start` runs the server compiled to JavaScript (`npm run build:server`), not the sources: this
 * compiles it as that script does, starts `main.js` on a free port and checks that it answers, with the
 * files it reads beside the modules (the contract, the dashboard's page) found from the compiled folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../scripts/build-server.ts';
import { root } from '../../scripts/lib/paths.ts';

let child: ChildProcess;
let baseUrl: string;
let output = '';

beforeAll(async () => {
  // The quick benchmark (another test file) builds at the same time: builds never change under each other.
  const build = await buildServer();
  child = spawn(process.execPath, [join(build, 'src', 'server', 'main.js'), '--port', '0', '--store', 'memory', '--token-delay-ms', '5'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no 'listening on' line within 20 s:\n${output}`)), 20_000);
    const read = (chunk: Buffer) => {
      output += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`main.js exited with ${code}:\n${output}`)));
  });
}, 60_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
});

describe('the compiled server (npm start)', () => {
  it('runs on node alone, without the TypeScript loader', async () => {
    const res = await fetch(`${baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'x-api-key': 'sk-demo-starter', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello there!' }] }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { object: string }).object).toBe('chat.completion');
  });

  it('finds the contract and the dashboard files from the compiled folder', async () => {
    const spec = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as { openapi: string };
    expect(spec.openapi).toMatch(/^3\.1\./);
    const dashboard = await fetch(`${baseUrl}/dashboard/assets/dashboard.js`);
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).toContain('fetch(');
  });

  it('on SIGTERM, lets a running stream finish, then exits 0', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const res = await fetch(`${baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'x-api-key': 'sk-demo-starter', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Tell me about lighthouses.' }], stream: true }),
    });
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('data: {');
    child.kill('SIGTERM');
    let text = '';
    for (let part = await reader.read(); !part.done; part = await reader.read()) text += new TextDecoder().decode(part.value);
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    expect(await exited).toBe(0);
    expect(output).toContain('SIGTERM: finishing running requests');
  });
});
