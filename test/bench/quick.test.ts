/**
 * The quick benchmark (`npm run bench -- --quick`, what CI runs) works: every measurement produces
 * figures and sees no error. No figure is compared with a speed: that is the full run's job.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BenchResults } from '../../scripts/bench/results.ts';

let out: string;
let run: ReturnType<typeof spawnSync>;
let results: BenchResults;

beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), 'bench-'));
  run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/bench.ts', '--quick', '--out', out], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    encoding: 'utf8',
    timeout: 210_000,
  });
  results = JSON.parse(readFileSync(join(out, 'bench.json'), 'utf8')) as BenchResults;
}, 220_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

const positive = (value: number) => expect(value).toBeGreaterThan(0);

describe('npm run bench -- --quick', () => {
  it('exits 0 and prints the tables with the ratios', () => {
    expect(run.status, String(run.stderr)).toBe(0);
    expect(run.stdout).toContain('reference / bare');
    expect(readFileSync(join(out, 'bench.md'), 'utf8')).toContain('| GET /v1/models | req/s |');
  });

  it('measures the model listing and chat completions on the reference and bare node:http, without an error', () => {
    expect(results.http.map((s) => s.name)).toEqual(['models', 'chat']);
    for (const scenario of results.http) {
      for (const target of ['reference', 'bare'] as const) {
        const f = scenario.figures[target];
        positive(f.rps);
        positive(f.p50Ms);
        expect(f.p99Ms).toBeGreaterThanOrEqual(f.p50Ms);
        positive(f.rssPeakMb);
        if (process.platform === 'linux') positive(f.cpuUsPerRequest ?? 0);
        expect({ target, errors: f.errors, non2xx: f.non2xx }).toEqual({ target, errors: 0, non2xx: 0 });
      }
      positive(scenario.ratios.bare);
    }
  });

  it('reads every stream whole: the expected events, [DONE] last, nothing lost', () => {
    const { ttfe, concurrent } = results.streams;
    positive(ttfe.p50Ms);
    expect(ttfe.failures).toBe(0);
    expect(concurrent.map((c) => c.streams)).toEqual([100]);
    for (const c of concurrent) {
      expect(c.problems).toEqual([]);
      expect(c.complete).toBe(c.streams);
      expect(c.eventsPerStream).toBeGreaterThan(3); // role, tokens, finish, [DONE]
      positive(c.peakOpen);
      positive(c.ttfeP50Ms);
      positive(c.rssPeakMb);
    }
  });

  it('generates images of both sizes, one and four at a time', () => {
    expect(results.images.map((i) => `${i.size}/${i.n}`)).toEqual(['512x512/1', '512x512/4', '1024x1024/1', '1024x1024/4']);
    for (const image of results.images) {
      positive(image.p50Ms);
      positive(image.imagesPerSecond);
      expect(image.errors + image.non2xx).toBe(0);
    }
  });

  it('runs the quota path on memory, SQLite and PostgreSQL: 200 while quota is left, 429 once it is used up', () => {
    const quota = results.quota;
    expect(quota.stores.map((s) => s.store)).toEqual(['memory', 'sqlite', 'postgres']);
    for (const store of quota.stores) {
      expect({ store: store.store, problems: store.problems }).toEqual({ store: store.store, problems: [] });
      for (const [name, status] of [['granted', '200'], ['refused', '429']] as const) {
        const f = store[name];
        positive(f.rps);
        positive(f.p50Ms);
        expect(Object.keys(f.statuses)).toEqual([status]);
        expect(f.errors).toBe(0);
      }
      if (process.platform === 'linux') positive(store.granted.cpuUsPerRequest ?? 0);
      positive(store.granted.rssPeakMb);
    }
    if (process.platform === 'linux') positive(quota.stores[2]!.refused.databaseCpuUsPerRequest ?? 0);
    positive(quota.ratios.granted);
    positive(quota.ratios.refused);
    expect(run.stdout).toContain('PostgreSQL / SQLite');
  });

  it('measures the validating proxy against a direct connection: every stream whole, the listing through it', () => {
    const proxy = results.proxy;
    expect(proxy.ttfe.failures).toBe(0);
    positive(proxy.ttfe.direct.p50Ms);
    positive(proxy.ttfe.proxied.p50Ms);
    positive(proxy.models.directRps);
    positive(proxy.models.proxiedRps);
    expect(run.stdout).toContain('through the proxy');
  });

  it("measures a model's upstream directly, through this gateway and through Portkey's", () => {
    const upstream = results.upstream;
    expect(upstream.portkey).toMatch(/^@portkey-ai\/gateway /);
    for (const who of ['direct', 'gateway', 'portkey'] as const) positive(upstream.latency[who].p50Ms);
    for (const rps of [upstream.throughput.directRps, upstream.throughput.gatewayRps, upstream.throughput.portkeyRps]) positive(rps);
    if (process.platform === 'linux') for (const who of ['direct', 'gateway', 'portkey'] as const) positive(upstream.throughput.cpuUsPerRequest[who] ?? 0);
    // A fallback after a connect error, through each gateway: every request answered (an error would end the run).
    expect(upstream.fallback.requests).toBe(10);
    for (const who of ['gateway', 'portkey'] as const) positive(upstream.fallback[who].p50Ms);
    expect(run.stdout).toContain('gateway / Portkey');
  });

  it('samples the server memory, says which tree and machine it measured, and shows the targets', () => {
    positive(results.memory.startMb);
    expect(results.memory.peakMb).toBeGreaterThanOrEqual(results.memory.startMb);
    expect(results.tree.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(results.machine.cores).toBeGreaterThan(0);
    expect(results.targets.length).toBe(7);
    expect(run.stdout).toContain('Targets (quick run: shown, not judged)');
  });
});
