/**
 * `gateway-conformance proxy`, the command: it prints a line per violation as it happens, writes its reports
 * when stopped (and every --report-every seconds), exits 1 when an exchange broke a rule; and its memory stays
 * flat however many exchanges pass, the violating ones included (it keeps a bounded number of them, and
 * counts the rest).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/conformance/cli.ts';
import { root } from '../examples/run.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ store: 'memory' });
});

afterAll(async () => {
  await server.close();
});

interface Running {
  child: ChildProcess;
  baseUrl: string;
  stderr: () => string;
  stdout: () => string;
  exited: Promise<number | null>;
}

/** The command in a process of its own, as a user runs it; resolves once it listens. */
function startCommand(args: string[], nodeFlags: string[] = []): Promise<Running> {
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', join(root, 'src/conformance/cli.ts'), 'proxy', '--port', '0', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the proxy did not start:\n${stderr}`)), 30_000);
    child.stderr!.on('data', () => {
      const address = /proxy: (http:\/\/127\.0\.0\.1:\d+) →/.exec(stderr)?.[1];
      if (!address) return;
      clearTimeout(timer);
      resolve({ child, baseUrl: address, stderr: () => stderr, stdout: () => stdout, exited });
    });
    void exited.then((code) => reject(new Error(`the proxy exited ${code}:\n${stderr}`)));
  });
}

/** The resident memory of a process, in MB (Linux). */
async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

/** Sends `count` requests, `concurrency` at a time on kept-alive connections; `make(i)` says which. */
async function send(baseUrl: string, count: number, concurrency: number, make: (i: number) => { method: string; path: string; body?: string }): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const { method, path, body } = make(i);
      await new Promise<void>((resolve, reject) => {
        const req = http.request(`${baseUrl}${path}`, { method, agent, headers: { 'x-api-key': 'sk-demo-pro', ...(body ? { 'content-type': 'application/json' } : {}) } }, (res) => {
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', reject);
        req.end(body);
      });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  agent.destroy();
}

describe('gateway-conformance proxy', () => {
  it('prints each violation, writes its reports when stopped and while it runs, and exits 1', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'proxy-reports-'));
    try {
      const proxy = await startCommand(['--upstream', server.baseUrl, '--json', join(dir, 'r/traffic.json'), '--junit', join(dir, 'r/traffic.xml'), '--html', join(dir, 'r/traffic.html'), '--report-every', '1']);
      await send(proxy.baseUrl, 3, 1, (i) => (i === 1
        ? { method: 'POST', path: '/v1/chat/completions', body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], temperature: 9 }) }
        : { method: 'GET', path: '/v1/models' }));
      // The report written while it runs, before it is stopped.
      await expect.poll(async () => (await readFile(join(dir, 'r/traffic.json'), 'utf8').catch(() => '')).includes('"exchanges": 3'), { timeout: 10_000 }).toBe(true);
      expect(proxy.stderr()).toMatch(/^✗ ex-000002 createChatCompletion {2}client {2}gateway\/invalid-request {2}body: \/temperature must be <= 2$/m);
      proxy.child.kill('SIGTERM');
      expect(await proxy.exited).toBe(1);
      expect(proxy.stdout()).toMatch(/✗ 3 exchanges: 2 conformed, 1 broke a rule/);
      const json = JSON.parse(await readFile(join(dir, 'r/traffic.json'), 'utf8'));
      expect(json.traffic).toMatchObject({ exchanges: 3, violating: 1 });
      expect(json.results.find((r: { outcome: string }) => r.outcome === 'failed').violations[0]).toMatchObject({ side: 'client', ruleId: 'gateway/invalid-request' });
      expect(await readFile(join(dir, 'r/traffic.xml'), 'utf8')).toMatch(/<failure message="the client: body: \/temperature must be &lt;= 2"/);
      expect(await readFile(join(dir, 'r/traffic.html'), 'utf8')).toContain('ex-000002');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('keeps its memory flat over 50,000 exchanges, one in five breaking a rule with a field of its own', async () => {
    const proxy = await startCommand(['--upstream', server.baseUrl, '--quiet', '--keep', '50'], ['--max-old-space-size=96']);
    const request = (i: number) => (i % 5 === 0
      // A client violation each time, with an undeclared field of a name seen few times: both tables stay bounded.
      ? { method: 'POST', path: '/v1/chat/completions', body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], temperature: 9, [`field_${i % 4000}`]: i }) }
      : { method: 'GET', path: '/v1/models' });
    await send(proxy.baseUrl, 1_000, 16, request);
    const early = await rssMb(proxy.child.pid!);
    await send(proxy.baseUrl, 49_000, 16, (i) => request(i + 1_000));
    const late = await rssMb(proxy.child.pid!);
    proxy.child.kill('SIGTERM');
    expect(await proxy.exited).toBe(1);
    // A judge that falls behind the flood leaves exchanges unjudged (counted) rather than holding them all.
    const [, total, conformed, broke, notKept, unjudged] = /(\d+) exchanges: (\d+) conformed, (\d+) broke a rule \((\d+) of them not kept\)(?:, (\d+) not judged)?/.exec(proxy.stdout())!.map(Number);
    expect(total).toBe(50_000);
    expect(conformed! + broke! + (unjudged || 0)).toBe(50_000);
    expect(broke! * 4).toBeGreaterThan(conformed! * 0.9);
    expect(notKept).toBe(broke! - 50);
    console.log(`proxy RSS after 1,000 exchanges: ${early.toFixed(1)} MB, after 50,000: ${late.toFixed(1)} MB`);
    expect(late - early).toBeLessThan(40);
  }, 300_000);
});

describe('gateway-conformance proxy, on a usage error', () => {
  /** What the command prints to stderr for `args`, with its exit status. */
  async function refused(args: string[]): Promise<{ status: number; lines: string[] }> {
    let text = '';
    const err = new Writable({ write: (chunk, _enc, done) => { text += chunk.toString(); done(); } });
    const status = await main(['proxy', ...args], new Writable({ write: (_c, _e, done) => done() }), err);
    return { status, lines: text.trimEnd().split('\n') };
  }

  it('prints the reason first, then a pointer to its --help, not the whole usage', async () => {
    for (const [args, reason] of [
      [['--upstream', `${server.baseUrl}/v1`], /^gateway-conformance proxy: --upstream '[^']+\/v1' ends in \/v1: pass the implementation's root/],
      [['--upstream', server.baseUrl, '--profile', 'mock'], /^gateway-conformance proxy: --profile must be core or full, not 'mock'$/],
      [[], /^gateway-conformance proxy: --upstream is required$/],
    ] as const) {
      const { status, lines } = await refused([...args]);
      expect(status).toBe(2);
      expect(lines[0]).toMatch(reason);
      expect(lines.slice(1)).toEqual(["Run 'gateway-conformance proxy --help' for the options."]);
    }
  });
});
