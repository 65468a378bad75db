/**
 * `npm run stress`: the reliability run. Starts the reference server as `npm start` does (compiled, in a
 * process of its own, on 127.0.0.1 only), then at once: normal traffic (chat, streams, prompts, images),
 * every hostile case of scripts/stress/hostile.ts, and a probe that asks `GET /v1/models` every 10 ms.
 * Then it sends SIGTERM while a stream is running and times the exit. It prints the probe's latencies, the
 * server's peak memory, the requests lost or answered 5xx, each hostile case's answer, and the shutdown;
 * docs/reliability.md records a run. Bounded: about half a minute, a few thousand requests.
 *
 *   npm run stress
 *
 * Exit code 1 when a hostile case got the wrong answer, a request was lost or answered 5xx, or the server
 * did not exit 0 with its stream complete. Latency and memory targets are printed, not judged: they depend
 * on the machine.
 */
import { spawn } from 'node:child_process';
import { availableParallelism, cpus } from 'node:os';
import { join } from 'node:path';
import { buildServer } from './build-server.ts';
import { sampleRss } from './bench/machine.ts';
import { percentile, round } from './bench/stats.ts';
import { root } from './lib/paths.ts';
import { serverLaunch } from './lib/server-launch.ts';
import { Worker } from 'node:worker_threads';
import { prepareHostileCases, type Outcome } from './stress/hostile.ts';

const ADMIN_TOKEN = 'stress-run-admin-token-0123456789';
const TRAFFIC_MS = 15_000;

const build = await buildServer();
const launch = serverLaunch();
const server = spawn(process.execPath, [...launch.nodeFlags, join(build, 'src', 'server', 'main.js'), '--port', '0', '--host', '127.0.0.1', '--store', 'memory'], {
  cwd: root,
  env: { ...process.env, ...launch.env, GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN, GATEWAY_REQUEST_TIMEOUT_MS: '3000', GATEWAY_HEADERS_TIMEOUT_MS: '2000', GATEWAY_TOKEN_DELAY_MS: '2' },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let log = '';
server.stdout.on('data', (chunk) => (log += chunk));
server.stderr.on('data', (chunk) => (log += chunk));
const exited = new Promise<{ code: number | null; at: number }>((resolve) => server.once('exit', (code) => resolve({ code, at: performance.now() })));
const baseUrl = await new Promise<string>((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`the server did not start:\n${log}`)), 30_000);
  const check = () => {
    const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
    if (match) {
      clearTimeout(timer);
      resolve(match[1]!);
    }
  };
  server.stdout.on('data', check);
});
const rss = sampleRss(server.pid!);
// Whatever happens to this script, the server does not outlive it.
process.on('exit', () => server.kill('SIGKILL'));

// Keys of the top tier for the image-heavy work, made through the admin API as an operator would.
const keys: string[] = [];
for (let i = 0; i < 6; i++) {
  const res = await fetch(`${baseUrl}/dashboard/api/keys`, {
    method: 'POST',
    headers: { 'x-admin-token': ADMIN_TOKEN, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `stress ${i}`, tier: 'ultimate' }),
  });
  keys.push(((await res.json()) as { key: string }).key);
}

let running = true;
const probe: number[] = [];
const traffic = { sent: 0, lost: 0, failed: 0, statuses: new Map<number, number>() };

/**
 * The probe runs in a thread of its own, so that what this script does meanwhile (sending 20 MB bodies,
 * reading answers) does not count in the server's latency. Its first request is not timed, and the run waits
 * for it: it pays for the thread's own `fetch` (undici, compiled on first use: about 50 ms in a new thread on a
 * quiet machine, 85 ms with both cores busy). Timed, with the hostile cases starting beside it, that first
 * request was the worst probe of the runs that missed 250 ms (258 and 361 ms; the next worst 48 ms).
 */
async function startProbe(): Promise<{ stop(): Promise<{ latencies: number[]; statuses: number[]; lost: number }> }> {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
    let running = true;
    const latencies = [], statuses = [];
    let lost = 0;
    const ask = () => fetch(workerData.url, { headers: { 'x-api-key': workerData.key } }).then((res) => res.arrayBuffer().then(() => res.status));
    parentPort.once('message', () => (running = false));
    (async () => {
      await ask().catch(() => lost++);
      parentPort.postMessage('ready');
      while (running) {
        const started = performance.now();
        try {
          const status = await ask();
          latencies.push(performance.now() - started);
          statuses.push(status);
        } catch {
          lost++;
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      parentPort.postMessage({ latencies, statuses, lost });
    })();`,
    { eval: true, workerData: { url: `${baseUrl}/v1/models`, key: keys[0] } },
  );
  await new Promise((resolve) => worker.once('message', resolve));
  return {
    stop() {
      const result = new Promise<{ latencies: number[]; statuses: number[]; lost: number }>((resolve) => worker.once('message', resolve));
      worker.postMessage('stop');
      return result.finally(() => worker.terminate());
    },
  };
}

function count(status: number): void {
  traffic.sent++;
  traffic.statuses.set(status, (traffic.statuses.get(status) ?? 0) + 1);
  if (status >= 500) traffic.failed++;
}

async function chatOnce(stream: boolean): Promise<void> {
  const res = await fetch(`${baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'x-api-key': 'sk-demo-pro', 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `Why is the sky blue? (${traffic.sent})` }], stream }),
  });
  const text = await res.text();
  if (stream && res.status === 200 && !text.trimEnd().endsWith('data: [DONE]')) traffic.lost++;
  count(res.status);
}

async function image(): Promise<void> {
  const res = await fetch(`${baseUrl}/v1/generation/image?model=image-gen`, {
    method: 'POST',
    headers: { 'x-api-key': keys[5]!, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'A lighthouse', size: '512x512' }),
  });
  await res.arrayBuffer();
  count(res.status);
}

async function trafficLoop(kind: number): Promise<void> {
  let i = 0;
  while (running) {
    try {
      // Mostly chat, some streams, and now and then a picture (the key has 50 a day; 429 after is fine).
      if (kind === 0 && i % 10 === 9) await image();
      else await chatOnce(i % 3 === 0);
    } catch {
      traffic.lost++;
    }
    i++;
  }
}

// Warm-up, so the probe measures the server and not the workers' first start; not counted.
await Promise.all([chatOnce(false), image()]);
Object.assign(traffic, { sent: 0, statuses: new Map<number, number>() });

const runHostileCases = await prepareHostileCases({ baseUrl, keys, adminToken: ADMIN_TOKEN });
const phase = rss.phase();
const prober = await startProbe();
const loops = Array.from({ length: 4 }, (_, kind) => trafficLoop(kind));
const started = performance.now();
const outcomes: Outcome[] = await runHostileCases();
const hostileSeconds = (performance.now() - started) / 1000;
await new Promise((resolve) => setTimeout(resolve, Math.max(0, TRAFFIC_MS - (performance.now() - started))));
running = false;
await Promise.all(loops);
const probed = await prober.stop();
probe.push(...probed.latencies);
for (const status of probed.statuses) count(status);
traffic.lost += probed.lost;
const peakMb = phase.end();

// SIGTERM while a stream is running: the stream must end complete, and the server exit 0.
const streaming = await fetch(`${baseUrl}/v1/chat/completions`, {
  method: 'POST',
  headers: { 'x-api-key': 'sk-demo-pro', 'content-type': 'application/json' },
  body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Tell me about lighthouses.' }], stream: true }),
});
const reader = streaming.body!.getReader();
let streamText = new TextDecoder().decode((await reader.read()).value);
const signalled = performance.now();
server.kill('SIGTERM');
for (let part = await reader.read(); !part.done; part = await reader.read()) streamText += new TextDecoder().decode(part.value);
const streamDone = performance.now();
const exit = await exited;
rss.stop();

const complete = streamText.trimEnd().endsWith('data: [DONE]');
const wrong = outcomes.filter((o) => !o.ok);
const p99 = percentile(probe, 99);
const worst = Math.max(...probe);
const statuses = [...traffic.statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(', ');

const lines = [
  `Reliability run — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), Node ${process.versions.node}`,
  '',
  '| Figure | Measured | Target |',
  '|---|---|---|',
  `| Probe \`GET /v1/models\`, p50 / p99 / worst (${probe.length} probes) | ${round(percentile(probe, 50))} / ${round(p99)} / ${round(worst)} ms | p99 < 50 ms, worst < 250 ms: ${p99 < 50 && worst < 250 ? 'met' : 'missed'} |`,
  `| Server RSS peak (twelve 4096² edits, four with a 4096² mask, and a 10-image edit in flight) | ${round(peakMb)} MB | < 400 MB: ${peakMb < 400 ? 'met' : 'missed'} |`,
  `| Requests lost or answered 5xx (of ${traffic.sent} normal and probe requests: ${statuses}) | ${traffic.lost} lost, ${traffic.failed} 5xx | 0: ${traffic.lost + traffic.failed === 0 ? 'met' : 'missed'} |`,
  `| Hostile cases answered as they should (all within ${round(hostileSeconds)} s) | ${outcomes.length - wrong.length} of ${outcomes.length} | all |`,
  `| SIGTERM with a stream running: stream complete, exit code, time to exit | ${complete ? 'complete' : 'CUT'}, ${exit.code}, ${round(exit.at - signalled)} ms (stream ended after ${round(streamDone - signalled)} ms) | complete, 0 |`,
  '',
  '| Hostile case | Expected | Got |',
  '|---|---|---|',
  ...outcomes.map((o) => `| ${o.ok ? '' : '**WRONG** '}${o.name} | ${o.expected.replace(/\|/g, '\\|')} | ${o.got.replace(/\|/g, '\\|').replace(/\n/g, ' ')} |`),
];
console.log(lines.join('\n'));
process.exit(wrong.length > 0 || traffic.lost + traffic.failed > 0 || !complete || exit.code !== 0 ? 1 : 0);
