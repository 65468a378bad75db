/** The comparison of two builds as tables: printed, and written as Markdown (and into docs/benchmarks.md). */
import { cpuRatioText, type CompareResults, type KindComparison, type KindFigure } from './compare.ts';
import { profileParts } from './profile-breakdown.ts';
import { tablesAsMarkdown, tablesAsText, type Table } from './report.ts';
import { round, thousands } from './stats.ts';

const num = (value: number) => round(value).toLocaleString('en-US');
const us = (value: number | null | undefined) => (value === null || value === undefined ? '–' : String(Math.round(value)));
const times = (ratio: number | null | undefined) => (ratio === null || ratio === undefined ? '' : `${ratio.toFixed(2)}×`);
const percent = (ratio: number | null | undefined) => (ratio === null || ratio === undefined ? '' : `${Math.round(ratio * 100)}%`);

/** The run and the two builds, in one line. */
export function describeComparison(results: CompareResults): string {
  const m = results.machine;
  const load = results.loadAverage.map((l) => l.toFixed(1)).join(' → ');
  const launch = [...Object.entries(results.serverEnv).map(([name, value]) => `${name}=${value}`), ...results.serverFlags].join(' ');
  const current = `${results.current.commit.slice(0, 10)}${results.current.modified ? ' with changes not committed' : ''}`;
  const baseline = `${results.baseline.ref} (${results.baseline.commit.slice(0, 10)}, dependencies ${results.baseline.dependencies === 'linked' ? 'linked: same lock' : 'installed: its own lock'})`;
  return (
    `${results.mode} comparison of ${results.startedAt}, ${round(results.elapsedS)} s: this tree ${current} against ${baseline}; ` +
    `${m.cores} cores (${m.cpu}), Node ${m.node}; load average ${load}; servers run with ${launch || 'no flags'}`
  );
}

function figureRows(k: KindComparison, showInstructions: boolean): string[][] {
  const base: KindFigure | undefined = k.baseline;
  const cell = (f: KindFigure | undefined, show: (f: KindFigure) => string) => (f ? show(f) : '–');
  // The columns: this tree, the baseline, bare node:http, Fastify alone, then the ratios.
  const rows = [
    [k.label, 'server CPU µs/req', us(k.current.cpuUsPerRequest), cell(base, (f) => us(f.cpuUsPerRequest)), us(k.bare.cpuUsPerRequest), us(k.fastify.cpuUsPerRequest), cpuRatioText(k.ratios), '', '', ''],
    ['', 'req/s', num(k.current.rps), cell(base, (f) => num(f.rps)), num(k.bare.rps), num(k.fastify.rps), times(k.ratios.rps), percent(k.ratios.currentVsBare), percent(k.ratios.baselineVsBare), percent(k.ratios.currentVsFastify)],
    ['', 'p50 / p99 ms', ...[k.current, base, k.bare, k.fastify].map((f) => cell(f, (g) => `${round(g.p50Ms)} / ${round(g.p99Ms)}`)), '', '', '', ''],
  ];
  // The chat measured in the same rounds, on this tree's server and on bare: the allowance's terms.
  if (k.chatBeside) rows.push(['', 'chat beside it, CPU µs/req', us(k.chatBeside.current.cpuUsPerRequest), '–', us(k.chatBeside.bare.cpuUsPerRequest), '–', '', '', '', '']);
  if (showInstructions) {
    const ours = k.instructions?.current?.perRequest;
    const theirs = k.instructions?.baseline?.perRequest;
    const bare = k.instructions?.bare?.perRequest;
    const fastify = k.instructions?.fastify?.perRequest;
    const ratio = (a: number | undefined, b: number | undefined) => (a !== undefined && b ? a / b : undefined);
    rows.push(['', 'instructions/req', thousands(ours), thousands(theirs), thousands(bare), thousands(fastify), times(ratio(ours, theirs)), percent(ratio(bare, ours)), percent(ratio(bare, theirs)), percent(ratio(fastify, ours))]);
  }
  rows.push(['', 'peak RSS MB', ...[k.current, base, k.bare, k.fastify].map((f) => cell(f, (g) => num(g.rssPeakMb))), '', '', '', '']);
  rows.push(['', 'errors / non-2xx', ...[k.current, base, k.bare, k.fastify].map((f) => cell(f, (g) => `${g.errors} / ${g.non2xx}`)), '', '', '', '']);
  if (k.events !== undefined) rows.push(['', 'events per answer', String(k.events), '', '', '', '', '', '', '']);
  if (k.notServed) rows.push(['', 'baseline', `does not serve it (${k.notServed.split(' ')[0]})`, '', '', '', '', '', '', '']);
  return rows;
}

/** Where each kind's CPU time goes on one build (µs per request), from its CPU profiles. */
function profileTable(results: CompareResults, build: 'current' | 'baseline'): Table | undefined {
  const kinds = results.kinds.filter((k) => k.profiles?.[build]);
  if (kinds.length === 0) return undefined;
  const of = (k: KindComparison) => k.profiles![build]!;
  return {
    title: `Where the CPU time goes on ${build === 'current' ? 'this tree' : `the baseline (${results.baseline.ref})`}: µs per request, from CPU profiles (shares of the samples × the CPU time measured)`,
    headers: ['Part', ...kinds.map((k) => k.kind)],
    rows: [
      ...profileParts.filter((p) => kinds.some((k) => of(k).parts[p] >= 0.5)).map((p) => [p, ...kinds.map((k) => us(of(k).parts[p]))]),
      ['total (CPU measured)', ...kinds.map((k) => us(of(k).cpuUsPerRequest))],
      ['of which main thread / workers', ...kinds.map((k) => `${us(of(k).threads.main)} / ${us(of(k).threads.workers)}`)],
    ],
  };
}

/** What outlives the young generation per request of each kind, on both builds, and where this tree's is made. */
function survivorsTable(results: CompareResults): Table | undefined {
  const kinds = results.kinds.filter((k) => k.survivors);
  if (kinds.length === 0) return undefined;
  const bytes = (n: number | undefined) => (n === undefined ? '–' : num(n));
  return {
    title: 'What outlives the young generation: sampled bytes per request (heap profiler, objects young collections could not free)',
    headers: ['Request', 'this tree', 'baseline', 'where this tree\'s are made (bytes per request)'],
    rows: kinds.map((k) => [
      k.label,
      bytes(k.survivors!.current?.bytesPerRequest),
      bytes(k.survivors!.baseline?.bytesPerRequest),
      (k.survivors!.current?.top ?? []).slice(0, 3).map((t) => `${t.site} ${num(t.bytesPerRequest)}`).join('; '),
    ]),
  };
}

function tables(results: CompareResults): Table[] {
  const s = results.settings;
  const showInstructions = results.kinds.some((k) => k.instructions);
  const figures: Table = {
    title:
      `This tree against the baseline (${results.baseline.ref}), bare node:http and Fastify alone (both replaying this tree's answers): ${s.connections} connections, ${s.rounds} round(s) of ${s.durationS} s per server and kind, ` +
      `medians; ratios are the medians of the rounds' ratios (in brackets, the lowest and highest round's)${showInstructions ? `; instructions per request counted by callgrind (V8's optimizing compiler apart), the lowest of two to four counts (until the two lowest agree within 1%, V8's compiler quiet in the lowest) of ${s.instructions.requests} requests after ${s.instructions.warmup} of each kind, the replaying servers' too (their shares: the inverse ratio of instructions)` : ''}`,
    headers: ['Request', 'Figure', 'this tree', 'baseline', 'bare node:http', 'Fastify alone', 'this tree / baseline', 'this tree / bare', 'baseline / bare', 'this tree / Fastify alone'],
    rows: results.kinds.flatMap((k) => figureRows(k, showInstructions)),
  };
  const memory: Table = {
    title: 'Server RSS after start',
    headers: ['Build', 'MB'],
    rows: [
      ['this tree', num(results.startRssMb.current)],
      ['baseline', num(results.startRssMb.baseline)],
    ],
  };
  const judged = results.mode === 'full';
  const goals: Table = {
    title: judged ? 'Targets' : 'Targets (quick run: shown, not judged)',
    headers: ['Target', 'Goal', 'Measured', judged ? 'Met' : 'Met (not judged)'],
    rows: results.targets.map((t) => [t.name, t.goal, t.measured, t.met ? 'yes' : 'NO']),
  };
  const extra = [profileTable(results, 'current'), profileTable(results, 'baseline'), survivorsTable(results)].filter((t): t is Table => t !== undefined);
  return [figures, ...extra, memory, goals];
}

/**
 * @example
 *   console.log(renderComparisonText(results));
 */
export function renderComparisonText(results: CompareResults): string {
  return tablesAsText(describeComparison(results), tables(results));
}

export function renderComparisonMarkdown(results: CompareResults, headingLevel = 2): string {
  return tablesAsMarkdown(describeComparison(results), tables(results), headingLevel);
}

/** What did not work in a comparison, in words; empty when everything did. */
export function brokenComparison(results: CompareResults): string[] {
  const broken: string[] = [];
  for (const k of results.kinds) {
    const figures = [
      ['this tree', k.current],
      ['baseline', k.baseline],
      ['bare', k.bare],
      ['Fastify alone', k.fastify],
      ['this tree, the chat beside it', k.chatBeside?.current],
      ['bare, the chat beside it', k.chatBeside?.bare],
    ] as const;
    for (const [name, f] of figures) {
      if (!f) continue;
      const where = `${k.label} on ${name}`;
      if (!(f.rps > 0 && f.p50Ms > 0)) broken.push(`${where}: no figure`);
      if (f.errors > 0) broken.push(`${where}: ${f.errors} connection errors`);
      if (f.non2xx > 0) broken.push(`${where}: ${f.non2xx} non-2xx answers`);
    }
    for (const [name, count] of Object.entries(k.instructions ?? {})) {
      if (count && (count.failed > 0 || !(count.perRequest > 0))) broken.push(`${k.label}, instructions on ${name}: ${count.failed} failed requests`);
    }
  }
  return broken;
}
