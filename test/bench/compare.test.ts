/**
 * The comparison of builds (`npm run bench -- --baseline <ref> --quick`) works: the commit is checked out in
 * a temporary work tree (its lock is this tree's here, so node_modules is linked), built and measured beside
 * this tree's server, bare node:http and Fastify alone (both replaying this tree's answers) on each kind
 * asked for, the change is printed, and the work tree is gone afterwards. No figure is compared with a speed.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompareResults } from '../../scripts/bench/compare.ts';
import { ratioText } from '../../scripts/bench/compare-report.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
// Other work trees of the repository (other runs') may come and go meanwhile: this run's is looked for alone.
const worktrees = () => execFileSync('git', ['worktree', 'list', '--porcelain'], { cwd: root, encoding: 'utf8' }).split('\n');

let out: string;
let run: ReturnType<typeof spawnSync>;
let results: CompareResults;

beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), 'bench-compare-test-'));
  run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/bench.ts', '--baseline', 'HEAD', '--quick', '--rounds', '2', '--kinds', 'models,chat,chat-stream', '--out', out], {
    cwd: root,
    encoding: 'utf8',
    timeout: 280_000,
  });
  results = JSON.parse(readFileSync(join(out, 'bench-compare.json'), 'utf8')) as CompareResults;
}, 290_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('npm run bench -- --baseline HEAD --quick', () => {
  it('exits 0 and prints, per kind, CPU per request and requests per second of the four servers, with the ratios', () => {
    expect(run.status, String(run.stderr)).toBe(0);
    expect(run.stdout).toContain('Server CPU time per request');
    expect(run.stdout).toContain('this tree / Fastify alone');
    const markdown = readFileSync(join(out, 'bench-compare.md'), 'utf8');
    for (const k of results.kinds) {
      const cells = [k.current, k.baseline!, k.bare, k.fastify].map((f) => Math.round(f.cpuUsPerRequest!));
      const row = `| ${k.label}${k.events === undefined ? '' : ` (${k.events} events)`} | ${cells.join(' | ')} | ${ratioText(k.ratios.cpu)} |`;
      if (process.platform === 'linux') expect(markdown).toContain(row);
    }
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
        // The median round's ratio lies within the lowest and highest rounds'.
        const { median, low, high } = k.ratios.cpu!;
        expect(low).toBeGreaterThan(0);
        expect([low <= median, median <= high]).toEqual([true, true]);
      }
    }
    expect(results.kinds.find((k) => k.kind === 'chat-stream')!.events).toBeGreaterThan(3);
  });

  it('removes its temporary work tree', () => {
    const dir = /in (\S+bench-baseline-\S+)/.exec(String(run.stderr))?.[1];
    expect(dir).toBeDefined();
    expect(worktrees()).not.toContain(`worktree ${dir}`);
    expect(existsSync(dir!)).toBe(false);
  });
});
