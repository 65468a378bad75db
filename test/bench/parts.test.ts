/** The benchmark's own arithmetic: percentiles, the image key pools, RSS sampling and the docs markers. */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { END, START, writeFigures } from '../../scripts/bench/docs.ts';
import { keyPool } from '../../scripts/bench/images.ts';
import { keyRotation } from '../../scripts/bench/quota.ts';
import type { BenchResults } from '../../scripts/bench/results.ts';
import { sampleRss } from '../../scripts/bench/rss.ts';
import { percentile } from '../../scripts/bench/stats.ts';

describe('percentile', () => {
  it('takes the nearest rank', () => {
    const samples = Array.from({ length: 100 }, (_, i) => 100 - i); // 100 … 1
    expect(percentile(samples, 50)).toBe(50);
    expect(percentile(samples, 99)).toBe(99);
    expect(percentile(samples, 100)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBe(0);
  });
});

describe('keyPool', () => {
  it('never gives a key more than its daily quota of 50 images', () => {
    const next = keyPool(['a', 'b', 'c']);
    const handed = Array.from({ length: 25 }, () => next(4)); // 100 images: 12 requests per key fit in 50
    expect(handed.filter((k) => k === 'a')).toHaveLength(12);
    expect(handed.filter((k) => k === 'b')).toHaveLength(12);
    expect(handed.at(-1)).toBe('c');
  });

  it('says when it runs out of keys', () => {
    const next = keyPool(['a']);
    for (let i = 0; i < 50; i++) next(1);
    expect(() => next(1)).toThrow(/ran out of image keys/);
  });
});

describe('keyRotation', () => {
  it('gives the keys in turn, and counts the requests beyond their quotas', () => {
    const keys = keyRotation(['a', 'b', 'c'], 2);
    expect(Array.from({ length: 6 }, () => keys.next())).toEqual(['a', 'b', 'c', 'a', 'b', 'c']);
    expect(keys.excess).toBe(0);
    keys.next();
    expect({ handed: keys.handed, excess: keys.excess }).toEqual({ handed: 7, excess: 1 });
  });
});

describe('sampleRss', () => {
  // The kernel's own peak (Linux /proc) is what catches a spike shorter than the sampling interval.
  it.skipIf(!existsSync('/proc/self/status'))('sees the peak of a phase in which a process grew by 60 MB and shrank again', async () => {
    // The child grows and shrinks when told to, and says when it is done: no timing is assumed.
    const script = `
      process.stdin.once('data', () => {
        let held = Array.from({ length: 60 }, () => Buffer.alloc(1e6, 1));
        held = null;
        gc();
        process.stdout.write('done\\n');
      });
      process.stdout.write('ready\\n');`;
    const child = spawn(process.execPath, ['--expose-gc', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
    const said = (word: string) => new Promise<void>((resolve) => child.stdout!.on('data', (d: Buffer) => d.toString().includes(word) && resolve()));
    try {
      await said('ready');
      const rss = sampleRss(child.pid!);
      const before = rss.now();
      const phase = rss.phase();
      const done = said('done');
      child.stdin!.write('go\n');
      await done;
      expect(phase.end()).toBeGreaterThan(before + 50);
      expect(rss.peak).toBeGreaterThan(before + 50);
      rss.stop();
    } finally {
      child.kill();
    }
  });
});

describe('writeFigures', () => {
  it('replaces only what lies between the markers', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-docs-'));
    try {
      const file = join(dir, 'benchmarks.md');
      writeFileSync(file, `# Benchmarks\n\nBy hand.\n\n${START}\nold figures\n${END}\n\nAlso by hand.\n`);
      const results = JSON.parse(readFileSync(new URL('./quick-run.sample.json', import.meta.url), 'utf8')) as BenchResults;
      writeFigures(file, results);
      const text = readFileSync(file, 'utf8');
      expect(text).not.toContain('old figures');
      expect(text).toMatch(/^# Benchmarks\n\nBy hand\.\n\n<!-- bench:figures:start/);
      expect(text).toContain('| GET /v1/models | req/s |');
      expect(text).toMatch(/<!-- bench:figures:end -->\n\nAlso by hand\.\n$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
