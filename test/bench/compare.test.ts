/**
 * The comparison of builds (`npm run bench -- --baseline <ref> --quick`) works: the commit is checked out in
 * a temporary work tree (its lock is this tree's here, so node_modules is linked), built and measured beside
 * this tree's server, bare node:http and Fastify alone (both replaying this tree's answers) on each kind
 * asked for, the change is printed, and the work tree is gone afterwards; with `--survivors`, what outlives
 * the young generation is sampled in each build's server. No figure is compared with a speed.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompareResults } from '../../scripts/bench/compare.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const worktrees = () => execFileSync('git', ['worktree', 'list', '--porcelain'], { cwd: root, encoding: 'utf8' });

let out: string;
let run: ReturnType<typeof spawnSync>;
let results: CompareResults;
let before: string;

beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), 'bench-compare-test-'));
  before = worktrees();
  run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/bench.ts', '--baseline', 'HEAD', '--quick', '--rounds', '2', '--kinds', 'models,chat,chat-stream', '--survivors', '--out', out], {
    cwd: root,
    encoding: 'utf8',
    timeout: 280_000,
  });
  results = JSON.parse(readFileSync(join(out, 'bench-compare.json'), 'utf8')) as CompareResults;
}, 290_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('npm run bench -- --baseline HEAD --quick', () => {
  it('exits 0 and prints the change per kind of request', () => {
    expect(run.status, String(run.stderr)).toBe(0);
    expect(run.stdout).toContain('this tree / baseline');
    expect(run.stdout).toContain('server CPU µs/req');
    expect(readFileSync(join(out, 'bench-compare.md'), 'utf8')).toContain('| GET /v1/models | server CPU µs/req |');
    expect(run.stdout).toContain('this tree / Fastify alone');
  });

  it('builds the commit HEAD names, with this tree\'s node_modules when the locks are the same', () => {
    expect(results.baseline.commit).toBe(execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim());
    expect(results.baseline.dependencies).toBe('linked');
    expect(run.stderr).toMatch(/baseline: checking out [0-9a-f]{10}/);
  });

  it('measures each kind on both builds, on bare node:http and on Fastify alone, alternately, with the CPU time per request', () => {
    expect(results.kinds.map((k) => k.kind)).toEqual(['models', 'chat', 'chat-stream']);
    // --rounds 2: two rounds on every server; both builds' servers started afresh for each round, the replaying
    // servers once per kind.
    expect(results.settings.rounds).toBe(2);
    for (const k of results.kinds) {
      expect(new Set(k.current.roundsPid).size, k.kind).toBe(2);
      expect(new Set(k.baseline!.roundsPid).size, k.kind).toBe(2);
      expect(new Set(k.bare.roundsPid).size, k.kind).toBe(1);
      expect(new Set(k.fastify.roundsPid).size, k.kind).toBe(1);
    }
    for (const k of results.kinds) {
      for (const f of [k.current, k.baseline!, k.bare, k.fastify]) {
        expect(f.roundsRps).toHaveLength(2);
        expect(f.rps).toBeGreaterThan(0);
        expect({ kind: k.kind, errors: f.errors, non2xx: f.non2xx }).toEqual({ kind: k.kind, errors: 0, non2xx: 0 });
        if (process.platform === 'linux') expect(f.cpuUsPerRequest).toBeGreaterThan(0);
      }
      expect(k.ratios.currentVsBare).toBeGreaterThan(0);
      expect(k.ratios.currentVsFastify).toBeGreaterThan(0);
      if (process.platform === 'linux') {
        expect(k.ratios.cpu).toBeGreaterThan(0);
        // The median round's ratio lies within the lowest and highest rounds'.
        expect(k.ratios.cpuSpread!.low).toBeLessThanOrEqual(k.ratios.cpu!);
        expect(k.ratios.cpuSpread!.high).toBeGreaterThanOrEqual(k.ratios.cpu!);
      }
    }
    expect(results.kinds.find((k) => k.kind === 'chat-stream')!.events).toBeGreaterThan(3);
    expect(results.targets.length).toBeGreaterThan(0);
  });

  it('measures the chat beside a kind judged against it, in the same rounds, on the same server of this tree and on bare', () => {
    const [models, chat, stream] = results.kinds;
    expect(models!.chatBeside).toBeUndefined();
    expect(chat!.chatBeside).toBeUndefined();
    const beside = stream!.chatBeside!;
    expect(beside.current.roundsPid).toEqual(stream!.current.roundsPid);
    expect(beside.bare.roundsPid).toHaveLength(2);
    expect(beside.bare.roundsPid[0]).not.toBe(stream!.bare.roundsPid[0]);
    for (const f of [beside.current, beside.bare]) {
      expect({ errors: f.errors, non2xx: f.non2xx }).toEqual({ errors: 0, non2xx: 0 });
      expect(f.rps).toBeGreaterThan(0);
    }
    const verdict = results.targets.find((t) => t.name === `${stream!.label}: CPU per request vs the chat completion`)!;
    if (process.platform === 'linux') expect(verdict.measured).toMatch(/^\d+ µs \(allowed \d+\): \d\.\d\d×/);
    expect(readFileSync(join(out, 'bench-compare.md'), 'utf8')).toContain('| chat beside it, CPU µs/req |');
  });

  it('samples what outlives the young generation per request in both builds\' servers (--survivors)', () => {
    for (const k of results.kinds) {
      for (const build of ['current', 'baseline'] as const) {
        const survivors = k.survivors?.[build];
        expect(survivors?.requests, `${k.kind} on ${build}`).toBeGreaterThan(0);
        expect(survivors!.bytesPerRequest).toBeGreaterThanOrEqual(0);
        for (const site of survivors!.top) expect(site.bytesPerRequest).toBeGreaterThan(0);
      }
    }
    expect(readFileSync(join(out, 'bench-compare.md'), 'utf8')).toContain('What outlives the young generation');
  });

  it('removes its temporary work tree', () => {
    expect(worktrees()).toBe(before);
    expect(run.stderr).toMatch(/in (\S+bench-baseline-\S+)/);
    expect(existsSync(/in (\S+bench-baseline-\S+)/.exec(String(run.stderr))![1]!)).toBe(false);
  });
});
