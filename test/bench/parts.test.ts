/**
 * The benchmark's own parts: percentiles, the image key pools, RSS sampling, the docs markers, the varied
 * prompts, the profile breakdown, the comparison's targets, and the servers that replay captured answers.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cpuRatioText, judgeComparison, type CompareResults, type KindComparison, type KindFigure } from '../../scripts/bench/compare.ts';
import { COMPARE_END, COMPARE_START, END, START, writeComparison, writeFigures } from '../../scripts/bench/docs.ts';
import { countsSettled } from '../../scripts/bench/instructions.ts';
import { partOf, profileBreakdown } from '../../scripts/bench/profile-breakdown.ts';
import { kindRequest, promptSequence, requestKinds } from '../../scripts/bench/requests.ts';
import { keyPool } from '../../scripts/bench/images.ts';
import { keyRotation } from '../../scripts/bench/quota.ts';
import type { BenchResults } from '../../scripts/bench/results.ts';
import { sampleRss } from '../../scripts/bench/rss.ts';
import { replayEntries } from '../../scripts/bench/replies.ts';
import { startEntry } from '../../scripts/bench/processes.ts';
import { percentile } from '../../scripts/bench/stats.ts';
import { survivorsOf } from '../../scripts/bench/survivors.ts';

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

describe('profileBreakdown', () => {
  const frame = (functionName: string, url = '') => ({ functionName, url, lineNumber: 0 });

  it('counts a frame to the part of the server its code belongs to', () => {
    expect(partOf(frame('answerChat', 'file:///x/dist/node-builds/abc/src/server/domain/engine/text/chat.js'))).toBe('text engine');
    expect(partOf(frame('answerChat', 'file:///x/dist/node/src/server/engine/text/chat.js'))).toBe('text engine');
    expect(partOf(frame('frame', 'file:///x/dist/node/src/server/http/sse.js'))).toBe('event streams');
    expect(partOf(frame('postMessage'))).toBe('worker hand-off');
    expect(partOf(frame('writev'))).toBe('socket writes (system calls)');
    expect(partOf(frame('validate42'))).toBe('validation (ajv)');
    expect(partOf(frame('Reply.send', 'file:///x/node_modules/fastify/lib/reply.js'))).toBe('Fastify');
    expect(partOf(frame('end', 'node:_http_outgoing'))).toBe('node:http, streams, events');
    expect(partOf(frame('(garbage collector)'))).toBe('garbage collection');
    expect(partOf(frame('(idle)'))).toBe('idle');
  });

  it('counts the samples inside the window only, scaled to the CPU time measured per request', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-profile-'));
    try {
      const nodes = [
        { id: 1, callFrame: frame('(root)') },
        { id: 2, callFrame: frame('parserOnIncoming', 'node:_http_server') },
        { id: 3, callFrame: frame('answerChat', 'file:///x/src/server/domain/engine/text/chat.js') },
        { id: 4, callFrame: frame('(idle)') },
      ];
      // Samples 1 ms apart from t = 1000 µs: before the window, then 3 in HTTP, 1 in the engine, 2 idle.
      const samples = [3, 3, 2, 2, 2, 3, 4, 4];
      const file = join(dir, 'main.cpuprofile');
      writeFileSync(file, JSON.stringify({ nodes, startTime: 0, samples, timeDeltas: samples.map(() => 1000) }));
      const b = profileBreakdown([file], { fromUs: 2500, toUs: 8500 }, 10, 40);
      // Four busy samples in the window, three of them HTTP: 3/4 and 1/4 of 40 µs.
      expect(b.parts['node:http, streams, events']).toBeCloseTo(30);
      expect(b.parts['text engine']).toBeCloseTo(10);
      expect(b.threads).toEqual({ main: 40, workers: 0 });
      expect(b.top[0]!.fn).toMatch(/^parserOnIncoming/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('judgeComparison', () => {
  const figure = (cpuUsPerRequest: number, rps: number): KindFigure => ({
    rps, p50Ms: 1, p99Ms: 2, requests: 100, errors: 0, non2xx: 0, cpuUsPerRequest, roundsRps: [rps], roundsCpuUs: [cpuUsPerRequest], roundsPid: [1], rssPeakMb: 100,
  });
  const kind = (k: KindComparison['kind'], current: KindFigure, bare: KindFigure, baseline?: KindFigure): KindComparison => ({
    kind: k,
    label: k,
    current,
    bare,
    fastify: bare,
    ...(baseline && { baseline }),
    ratios: {
      cpu: baseline ? current.cpuUsPerRequest! / baseline.cpuUsPerRequest! : null,
      cpuSpread: baseline ? { low: current.cpuUsPerRequest! / baseline.cpuUsPerRequest!, high: current.cpuUsPerRequest! / baseline.cpuUsPerRequest! } : null,
      rps: baseline ? current.rps / baseline.rps : null,
      currentVsBare: current.rps / bare.rps,
      baselineVsBare: baseline ? baseline.rps / bare.rps : null,
      currentVsFastify: current.rps / bare.rps,
    },
  });
  const results = (kinds: KindComparison[]) => ({ kinds }) as unknown as Omit<CompareResults, 'targets'>;

  it('judges the listing and the chat against the baseline and bare, and the other kinds against the chat plus what bare pays for their extra bytes', () => {
    const verdicts = judgeComparison(
      results([
        kind('models', figure(60, 8000), figure(40, 10000), figure(61, 7900)),
        kind('chat', figure(130, 5000), figure(45, 9000), figure(100, 6000)),
        // bare pays 100 µs more for the stream than for the chat: the stream may cost 130 + 100.
        kind('chat-stream', figure(225, 2000), figure(145, 4000)),
        kind('messages', figure(140, 4800), figure(46, 8800)),
      ]),
    );
    expect(verdicts.map((v) => [v.name, v.met])).toEqual([
      ['GET /v1/models: CPU per request vs the baseline', true],
      ['GET /v1/models vs bare node:http', true],
      ['chat completion: CPU per request vs the baseline', false],
      ['chat completion vs bare node:http', true],
      ['chat-stream: CPU per request vs the chat completion', true],
      ['messages: CPU per request vs the chat completion', false],
    ]);
    expect(verdicts[2]!.measured).toBe('1.30×');
    expect(verdicts[4]!.measured).toBe('225 µs (allowed 230)');
  });

  it('judges a kind against the chat measured beside it round by round, when the run did', () => {
    const rounds = (cpu: number[]): KindFigure => ({ ...figure(cpu[1]!, 3000), roundsCpuUs: cpu, roundsRps: cpu.map(() => 3000), roundsPid: cpu.map(() => 1) });
    // The chat's own turn came in a fast phase of the host (150 µs, bare 50), the Anthropic message's in a slow
    // one: bare itself paid 120 µs for it. Against the chat's own medians it is over its allowance
    // (250 > 150 + 70); against the chat measured in its rounds (200–220 µs, bare 75–85) it is not.
    const messages = Object.assign(kind('messages', rounds([240, 250, 260]), rounds([120, 120, 120])), {
      chatBeside: { current: rounds([200, 210, 220]), bare: rounds([75, 80, 85]) },
    });
    const chat = kind('chat', figure(150, 5000), figure(50, 9000), figure(140, 5200));
    const verdict = (kinds: KindComparison[]) => judgeComparison(results(kinds)).find((v) => v.name === 'messages: CPU per request vs the chat completion');
    expect(verdict([chat, messages])).toMatchObject({ measured: '250 µs (allowed 250): 1.00× (rounds 0.98–1.02×)', met: true });
    // Without the chat of its own in the run (--kinds messages), still judged.
    expect(verdict([messages])).toMatchObject({ met: true });
    // One round over its allowance of three is not the median.
    messages.current = rounds([240, 250, 300]);
    expect(verdict([messages])!.met).toBe(true);
    messages.current = rounds([240, 260, 300]);
    expect(verdict([messages])).toMatchObject({ measured: '260 µs (allowed 250): 1.04× (rounds 0.98–1.18×)', met: false });
    // A run without the chat beside it (recorded before it was measured so): the chat's own medians.
    const { chatBeside: _, ...before } = messages;
    expect(verdict([chat, { ...before, current: rounds([240, 250, 260]) }])).toMatchObject({ measured: '250 µs (allowed 220)', met: false });
  });

  it('says how far the rounds\' CPU ratios spread beside their median, and judges the median', () => {
    const models = kind('models', figure(102, 8000), figure(40, 10000), figure(100, 7900));
    models.ratios.cpuSpread = { low: 0.9, high: 1.155 };
    const [vsBaseline] = judgeComparison(results([models]));
    expect(vsBaseline).toMatchObject({ measured: '1.02× (rounds 0.90–1.16×)', met: false });
    expect(cpuRatioText({ cpu: 1.02, cpuSpread: { low: 1.018, high: 1.021 } })).toBe('1.02×');
    expect(cpuRatioText({ cpu: null, cpuSpread: null })).toBe('');
  });

  it('judges the same allowance in instructions when each kind was counted on this tree and on bare', () => {
    const counted = (current: number, bare: number) => ({ current: { perRequest: current }, bare: { perRequest: bare } }) as KindComparison['instructions'];
    const withCounts = (k: KindComparison, instructions: KindComparison['instructions']) => Object.assign(k, { instructions });
    const verdicts = judgeComparison(
      results([
        withCounts(kind('chat', figure(130, 5000), figure(45, 9000), figure(100, 6000)), counted(400_000, 90_000)),
        // Bare counts 150k more for the stream: it may count 400k + 150k.
        withCounts(kind('chat-stream', figure(225, 2000), figure(145, 4000)), counted(549_000, 240_000)),
        // Bare counts less for the Anthropic answer than for the chat: no allowance below the chat's own.
        withCounts(kind('messages', figure(120, 4800), figure(46, 8800)), counted(401_000, 80_000)),
        // Not counted on bare: no verdict in instructions.
        withCounts(kind('responses', figure(120, 4800), figure(46, 8800)), { current: { perRequest: 1 } } as KindComparison['instructions']),
      ]),
    );
    const inInstructions = verdicts.filter((v) => v.name.includes('instructions per request vs the chat completion'));
    expect(inInstructions.map((v) => [v.name, v.measured, v.met])).toEqual([
      ['chat-stream: instructions per request vs the chat completion', '549k (allowed 550k)', true],
      ['messages: instructions per request vs the chat completion', '401k (allowed 400k)', false],
    ]);
  });

  it('judges the listing and the chat against the baseline and bare in instructions too, when both builds and bare were counted', () => {
    const counted = (current: number, baseline: number, bare: number) => ({ current: { perRequest: current }, baseline: { perRequest: baseline }, bare: { perRequest: bare } }) as KindComparison['instructions'];
    const verdicts = judgeComparison(
      results([
        Object.assign(kind('models', figure(60, 8000), figure(40, 10000), figure(61, 7900)), { instructions: counted(96_000, 99_000, 68_000) }),
        Object.assign(kind('chat', figure(130, 5000), figure(45, 9000), figure(100, 6000)), { instructions: counted(394_000, 305_000, 82_000) }),
      ]),
    );
    expect(verdicts.filter((v) => v.name.includes('instructions')).map((v) => [v.name, v.goal, v.measured, v.met])).toEqual([
      ['GET /v1/models: instructions per request vs the baseline', '≤ 1.00× the baseline\'s', '96k / 99k (0.97×)', true],
      ['GET /v1/models vs bare node:http, in instructions', 'bare\'s count ≥ 75% of this tree\'s', '70.8% (68k / 96k)', false],
      ['chat completion: instructions per request vs the baseline', '≤ 1.20× the baseline\'s', '394k / 305k (1.29×)', false],
      ['chat completion vs bare node:http, in instructions', 'bare\'s count ≥ 50% of this tree\'s', '20.8% (82k / 394k)', false],
    ]);
    // A share a hair under its bound reads as such, not as the bound.
    const justUnder = judgeComparison(results([Object.assign(kind('models', figure(60, 8000), figure(40, 10000), figure(61, 7900)), { instructions: counted(96_491, 99_374, 72_305) })]));
    expect(justUnder.find((v) => v.name === 'GET /v1/models vs bare node:http, in instructions')).toMatchObject({ measured: '74.9% (72k / 96k)', met: false });
    // Each instruction verdict follows the CPU verdict of the same target.
    expect(verdicts.map((v) => v.name).slice(0, 4)).toEqual([
      'GET /v1/models: CPU per request vs the baseline',
      'GET /v1/models: instructions per request vs the baseline',
      'GET /v1/models vs bare node:http',
      'GET /v1/models vs bare node:http, in instructions',
    ]);
  });
});

describe('countsSettled', () => {
  it('says a kind is counted again until its two lowest counts are within 1% of each other, with the compiler quiet in the lowest', () => {
    const quiet = (passes: number[]) => countsSettled(passes, passes.map(() => 0));
    // 6fe2d06's chat in one run: the second count with V8's compiler still busy.
    expect(countsSettled([354_000, 315_000], [8_000, 23_000])).toBe(false);
    expect(countsSettled([354_000, 315_000, 306_000], [8_000, 23_000, 23_000])).toBe(false);
    expect(countsSettled([354_000, 315_000, 306_000, 303_000], [8_000, 23_000, 23_000, 0])).toBe(true);
    // Two counts that agree with the compiler busy in both are not settled; the lowest must be quiet.
    expect(countsSettled([401_800, 398_700], [25_000, 28_000])).toBe(false);
    expect(countsSettled([401_800, 398_700, 394_200], [25_000, 28_000, 0])).toBe(false);
    expect(countsSettled([401_800, 398_700, 394_200, 394_000], [25_000, 28_000, 0, 3_000])).toBe(true);
    expect(countsSettled([72_000, 71_900], [4_000, 700])).toBe(true);
    // This tree's listing and chat: the first count a little dearer, the second settled.
    expect(quiet([98_000, 96_000])).toBe(false);
    expect(quiet([98_000, 96_000, 96_500])).toBe(true);
    expect(quiet([395_000, 394_000])).toBe(true);
    expect(quiet([100_000, 101_000])).toBe(true);
    expect(quiet([100_000, 101_001])).toBe(false);
    // Fewer than two counts never settle.
    expect(quiet([394_000])).toBe(false);
    expect(quiet([])).toBe(false);
  });
});

describe('writeComparison', () => {
  it('replaces only what lies between its own markers', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-docs-'));
    try {
      const file = join(dir, 'benchmarks.md');
      writeFileSync(file, `# Benchmarks\n\n${START}\nfull run\n${END}\n\n${COMPARE_START}\nold comparison\n${COMPARE_END}\n`);
      const kinds: KindComparison[] = [];
      writeComparison(file, {
        mode: 'full', startedAt: '2026-11-25T00:00:00.000Z', elapsedS: 1, loadAverage: [1, 1], serverFlags: [], serverEnv: {},
        machine: { cores: 2, cpu: 'cpu', node: 'v20', os: 'Linux', memoryGb: 8 },
        settings: { mode: 'full', connections: 50, warmupS: 2, durationS: 3, rounds: 5, instructions: { warmup: 1, requests: 1 }, profileS: 1 },
        current: { commit: 'a'.repeat(40), subject: 'now', modified: false },
        baseline: { ref: 'v1', commit: 'b'.repeat(40), subject: 'then', dependencies: 'installed' },
        startRssMb: { current: 90, baseline: 80 },
        kinds,
        targets: [],
      });
      const text = readFileSync(file, 'utf8');
      expect(text).toContain('full run');
      expect(text).not.toContain('old comparison');
      expect(text).toContain('this tree aaaaaaaaaa against v1 (bbbbbbbbbb, dependencies installed: its own lock)');
      expect(text.endsWith(`${COMPARE_END}\n`)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('survivorsOf', () => {
  it('adds a sampling profile\'s bytes per request, in all and by allocation site, largest first', () => {
    const frame = (functionName: string, url: string, lineNumber: number) => ({ functionName, url, lineNumber });
    const profile = {
      head: {
        id: 1,
        callFrame: frame('(root)', '', -1),
        children: [
          { id: 2, callFrame: frame('handler', 'file:///x/dist/node-builds/abc/src/server/routes/chat.js', 9), children: [] },
          {
            id: 3,
            callFrame: frame('parse', 'node:_http_common', 69),
            children: [{ id: 4, callFrame: frame('', 'file:///x/node_modules/fastify/lib/reply.js', 99), children: [] }],
          },
        ],
      },
      samples: [
        { nodeId: 2, size: 1000 },
        { nodeId: 2, size: 3000 },
        { nodeId: 3, size: 2000 },
        { nodeId: 4, size: 600 },
      ],
    };
    const survivors = survivorsOf(profile, 10);
    expect(survivors.bytesPerRequest).toBe(660);
    expect(survivors.requests).toBe(10);
    expect(survivors.top).toEqual([
      { site: 'handler src/server/routes/chat.js:10', bytesPerRequest: 400 },
      { site: 'parse node:_http_common:70', bytesPerRequest: 200 },
      { site: '(anonymous) node_modules/fastify/lib/reply.js:100', bytesPerRequest: 60 },
    ]);
  });
});

describe('the command line', () => {
  const bench = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'scripts/bench.ts', ...args], { cwd: join(import.meta.dirname, '../..'), encoding: 'utf8' });

  it('prints its usage for --help, and exits 0 without measuring', () => {
    const run = bench('--help');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('--baseline <ref>');
    expect(run.stdout).toContain('--instructions');
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
        const replaying = await startEntry(server, replayEntries[server], [replies]);
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
