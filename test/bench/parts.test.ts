/**
 * The benchmark's own parts: percentiles and the ratios of rounds, the comparison's ratios as printed, the image
 * keys handed out, RSS sampling, the docs' markers, the varied prompts, the command line, and the servers that
 * replay captured answers.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kindRatios, type CompareResults, type KindComparison } from '../../scripts/bench/compare.ts';
import { renderComparisonMarkdown, renderComparisonText, writeComparison } from '../../scripts/bench/compare-report.ts';
import type { ServerFigure } from '../../scripts/bench/http.ts';
import { keyRotation } from '../../scripts/bench/images.ts';
import { sampleRss } from '../../scripts/bench/machine.ts';
import { startReplay } from '../../scripts/bench/replay.ts';
import { writeFigures } from '../../scripts/bench/report.ts';
import { kindRequest, promptSequence, requestKinds } from '../../scripts/bench/requests.ts';
import type { BenchResults } from '../../scripts/bench/results.ts';
import { percentile, ratioOfRounds } from '../../scripts/bench/stats.ts';
import { markers } from '../../scripts/bench/tables.ts';

const root = join(import.meta.dirname, '../..');

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

describe('keyRotation', () => {
  it('gives the keys in turn, never a key more images than its quota, and counts the requests beyond them', () => {
    const keys = keyRotation(['a', 'b', 'c'], 8);
    expect(Array.from({ length: 4 }, () => keys.next(4))).toEqual(['a', 'b', 'c', 'a']);
    expect([keys.next(4), keys.next(4)]).toEqual(['b', 'c']);
    expect(keys.excess).toBe(0);
    keys.next(1);
    expect({ handed: keys.handed, excess: keys.excess }).toEqual({ handed: 7, excess: 1 });
    // A key with room for fewer images than asked is passed over.
    const some = keyRotation(['a', 'b'], 5);
    expect([some.next(4), some.next(1), some.next(4), some.next(1)]).toEqual(['a', 'b', 'b', 'a']);
    expect(() => keyRotation([])).toThrow(/needs keys/);
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

describe('ratioOfRounds', () => {
  it('gives the median of the rounds\' ratios with the lowest and highest, over the rounds in which both were measured', () => {
    expect(ratioOfRounds([110, 90, 150, 100, 120], [100, 100, 100, 100, 100])).toEqual({ median: 1.1, low: 0.9, high: 1.5 });
    // Not the ratio of the medians: each round's two servers ran seconds apart.
    expect(ratioOfRounds([10, 20, 30], [20, 20, 15])!.median).toBe(1);
    expect(ratioOfRounds([10, null, 30], [10, 10, 0])).toEqual({ median: 1, low: 1, high: 1 });
    expect(ratioOfRounds([null], [10])).toBeNull();
  });
});

describe('the comparison of builds, as printed', () => {
  const figure = (cpu: number[], rps: number[]): ServerFigure => ({
    rps: percentile(rps, 50), p50Ms: 1, p99Ms: 2, requests: 100, errors: 0, errorKinds: {}, non2xx: 0, cpuUsPerRequest: percentile(cpu, 50),
    roundsRps: rps, roundsCpuUs: cpu, roundsPid: cpu.map((_, i) => i + 1), rssPeakMb: 120,
  });
  const kind = (k: KindComparison['kind'], f: Omit<KindComparison, 'kind' | 'label' | 'ratios'>): KindComparison => ({ kind: k, label: `the ${k}`, ...f, ratios: kindRatios(f) });
  const results: CompareResults = {
    mode: 'full', startedAt: '2026-12-03T00:00:00.000Z', elapsedS: 900, loadAverage: [0.5, 1], serverFlags: ['--no-allocation-site-pretenuring'], serverEnv: { MALLOC_ARENA_MAX: '1' },
    machine: { cores: 2, cpu: 'cpu', node: 'v20', os: 'Linux', memoryGb: 8 },
    settings: { mode: 'full', connections: 50, warmupS: 2, durationS: 3, rounds: 3 },
    tree: { commit: 'a'.repeat(40), subject: 'now', modified: false },
    baseline: { ref: 'v1', commit: 'b'.repeat(40), subject: 'then', dependencies: 'linked' },
    startRssMb: { current: 90, baseline: 80 },
    kinds: [
      // This tree spends 60, 57 and 66 µs where the baseline spends 50, 60 and 55: rounds 1.20×, 0.95×, 1.20×.
      kind('models', { current: figure([60, 57, 66], [9000, 9500, 8000]), baseline: figure([50, 60, 55], [11000, 9000, 9000]), bare: figure([30, 30, 30], [20000, 19000, 16000]), fastify: figure([40, 40, 40], [12000, 12500, 16000]) }),
      kind('chat-stream', { events: 93, notServed: '404 {"error"}', current: figure([200, 210], [5000, 5200]), bare: figure([60, 70], [10000, 10400]), fastify: figure([50, 55], [10000, 10400]) }),
    ],
  };

  it('computes each ratio round by round', () => {
    const [models, stream] = results.kinds;
    expect(models!.ratios.cpu).toEqual({ median: 1.2, low: 0.95, high: 1.2 });
    expect(models!.ratios.rps).toBeCloseTo(8000 / 9000); // 0.818, 1.056, 0.889: the median
    expect(models!.ratios.currentVsBare).toBeCloseTo(0.5); // 0.45, 0.5, 0.5
    expect(models!.ratios.baselineVsBare).toBeCloseTo(0.55); // 0.55, 0.474, 0.5625
    expect(models!.ratios.currentVsFastify).toBeCloseTo(0.75); // 0.75, 0.76, 0.5
    expect(stream!.ratios).toEqual({ cpu: null, rps: null, currentVsBare: 0.5, baselineVsBare: null, currentVsFastify: 0.5 });
  });

  it('prints CPU per request and requests per second of the four servers side by side, with the ratios and the CPU ratio\'s spread', () => {
    const text = renderComparisonText(results);
    expect(text).toMatch(/^the models +60 +55 +30 +40 +1\.20× \(rounds 0\.95–1\.20×\)$/m);
    expect(text).toMatch(/^the models +9,000 +9,000 +19,000 +12,500 +0\.89× +50% +55% +75%$/m);
    expect(text).toMatch(/^the chat-stream \(93 events\) +200 +not served \(404\) +60 +50 *$/m);
    expect(text).toMatch(/^this tree +90 +120$/m);
    const markdown = renderComparisonMarkdown(results, 3);
    expect(markdown).toContain('| the models | 60 | 55 | 30 | 40 | 1.20× (rounds 0.95–1.20×) |');
    expect(markdown).toContain('this tree aaaaaaaaaa against v1 (bbbbbbbbbb, dependencies linked: same lock)');
  });

  it('writes into docs/benchmarks.md between its own markers only, as the full run writes between its own', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-docs-'));
    try {
      const file = join(dir, 'benchmarks.md');
      const original = readFileSync(join(root, 'docs', 'benchmarks.md'), 'utf8');
      writeFileSync(file, original);
      const outside = (text: string, m: { start: string; end: string }) => [text.slice(0, text.indexOf(m.start)), text.slice(text.indexOf(m.end))];
      writeComparison(file, results);
      const text = readFileSync(file, 'utf8');
      expect(outside(text, markers.compare)).toEqual(outside(original, markers.compare));
      expect(text).toContain('| the models | 60 | 55 | 30 | 40 | 1.20× (rounds 0.95–1.20×) |');
      const run = JSON.parse(readFileSync(new URL('./quick-run.sample.json', import.meta.url), 'utf8')) as BenchResults;
      writeFigures(file, run);
      const written = readFileSync(file, 'utf8');
      expect(outside(written, markers.figures)).toEqual(outside(text, markers.figures));
      expect(written).toContain('| GET /v1/models | req/s |');
      expect(written).toContain('| the models | 60 | 55 | 30 | 40 | 1.20× (rounds 0.95–1.20×) |');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('promptSequence', () => {
  it('gives short prompts that differ from one request to the next, the same sequence for the same seed', () => {
    const prompts = Array.from({ length: 2000 }, promptSequence(1));
    expect(new Set(prompts).size).toBeGreaterThan(1990);
    expect(Array.from({ length: 2000 }, promptSequence(1))).toEqual(prompts);
    expect(promptSequence(2)()).not.toBe(prompts[0]);
    for (const prompt of prompts) expect(prompt.length).toBeLessThan(120);
  });

  it('puts a new prompt in each request of every kind, in the body that kind of request takes', () => {
    for (const kind of requestKinds.filter((k) => k !== 'models')) {
      const spec = kindRequest(kind, 'sk-x', 1);
      const bodies = [1, 2, 3].map(() => spec.setupRequest!({ method: 'POST', path: spec.path, headers: spec.headers, body: spec.body }, {})!.body as string);
      expect(new Set(bodies).size).toBe(3);
      const body = JSON.parse(bodies[0]!) as Record<string, unknown>;
      expect(body.model).toBe('gpt-4o-mini');
      expect(body.stream === true).toBe(kind.endsWith('-stream'));
    }
    expect(kindRequest('models', 'sk-x', 1)).toMatchObject({ method: 'GET', path: '/v1/models' });
  });
});

describe('the command line', () => {
  const bench = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'scripts/bench.ts', ...args], { cwd: root, encoding: 'utf8' });

  it('prints its usage for --help, and exits 0 without measuring', () => {
    const run = bench('--help');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('--baseline <ref>');
    expect(run.stdout).toContain('--write-docs');
  });

  it('refuses an option it does not know with the usage and exit code 2, no stack trace', () => {
    const run = bench('--basline', 'HEAD');
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^bench: Unknown option '--basline'/);
    expect(run.stderr).toContain('--baseline <ref>');
    expect(run.stderr).not.toContain('    at ');
  });

  it('refuses an unknown kind with exit code 2', () => {
    const run = bench('--baseline', 'HEAD', '--kinds', 'models,chats');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--kinds: unknown chats');
  });

  it('refuses a number of rounds that is not a whole number from 1 to 100, or without --baseline, with exit code 2', () => {
    for (const given of ['0', '2.5', 'many', '101']) {
      const run = bench('--baseline', 'HEAD', '--rounds', given);
      expect(run.status, given).toBe(2);
      expect(run.stderr).toContain(`--rounds: ${given} is not a whole number from 1 to 100`);
    }
    const alone = bench('--quick', '--rounds', '3');
    expect(alone.status).toBe(2);
    expect(alone.stderr).toContain('give --baseline <ref> too');
  });
});

describe('the replaying servers', () => {
  it('send the captured status, headers and bytes over HTTP: bare node:http, and Fastify alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-replay-'));
    const events = Array.from({ length: 5 }, (_, i) => `data: {"i":${i},"text":"é"}\n\n`).join('');
    const answers = {
      'GET /v1/models': { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', vary: 'Origin' }, body: '{"data":[]}' },
      'POST /v1/chat/completions': { status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' }, body: events },
    };
    const replies = join(dir, 'replies.json');
    writeFileSync(replies, JSON.stringify(Object.fromEntries(Object.entries(answers).map(([route, a]) => [route, { ...a, body: Buffer.from(a.body).toString('base64') }]))));
    try {
      for (const server of ['bare', 'fastify'] as const) {
        const replaying = await startReplay(server, replies);
        try {
          for (const [route, answer] of Object.entries(answers)) {
            const [method, path] = route.split(' ') as [string, string];
            const res = await fetch(`${replaying.baseUrl}${path}`, { method, headers: { 'content-type': 'application/json' }, body: method === 'POST' ? '{"stream":true}' : undefined });
            expect({ server, route, status: res.status, body: await res.text() }).toEqual({ server, route, status: answer.status, body: answer.body });
            for (const [name, value] of Object.entries(answer.headers)) expect(res.headers.get(name), `${server} ${route} ${name}`).toBe(value);
          }
        } finally {
          await replaying.close();
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
