/** The comparison of two builds as tables: printed, written to `artifacts/bench-compare.md`, and into `docs/benchmarks.md`. */
import type { CompareResults, KindComparison } from './compare.ts';
import type { RoundsRatio } from './stats.ts';
import { describeRun, markers, num, percent, tablesAsMarkdown, tablesAsText, times, us, writeBetween, type Table } from './tables.ts';

/** The run and the two builds, in one line. */
export function describeComparison(results: CompareResults): string {
  const { ref, commit, dependencies } = results.baseline;
  return describeRun(results, 'comparison', ` against ${ref} (${commit.slice(0, 10)}, dependencies ${dependencies === 'linked' ? 'linked: same lock' : 'installed: its own lock'})`);
}

/**
 * A ratio with the lowest and highest of its rounds when they differ: `1.02× (rounds 0.97–1.06×)`; empty when
 * not measured.
 */
export function ratioText(ratio: RoundsRatio | null): string {
  if (ratio === null) return '';
  const shown = (r: number) => r.toFixed(2);
  return shown(ratio.low) === shown(ratio.high) ? `${shown(ratio.median)}×` : `${shown(ratio.median)}× (rounds ${shown(ratio.low)}–${shown(ratio.high)}×)`;
}

const labelOf = (k: KindComparison) => (k.events === undefined ? k.label : `${k.label} (${k.events} events)`);
const notServed = (k: KindComparison) => `not served (${k.notServed?.split(' ')[0]})`;

function tables(results: CompareResults): Table[] {
  const s = results.settings;
  const servers = ['this tree', `baseline (${results.baseline.ref})`, 'bare node:http', 'Fastify alone'];
  const cpu: Table = {
    title:
      `Server CPU time per request, µs (user + system, every thread), median round of ${s.rounds} round(s) of ${s.durationS} s per server and kind at ${s.connections} connections; ` +
      'this tree / baseline: the median of the rounds\' ratios, with the lowest and highest round',
    headers: ['Request', ...servers, 'this tree / baseline'],
    rows: results.kinds.map((k) => [labelOf(k), us(k.current.cpuUsPerRequest), k.baseline ? us(k.baseline.cpuUsPerRequest) : notServed(k), us(k.bare.cpuUsPerRequest), us(k.fastify.cpuUsPerRequest), ratioText(k.ratios.cpu)]),
  };
  const rps: Table = {
    title: 'Requests per second, median round; ratios: the medians of the rounds\' ratios (bare node:http and Fastify alone replay this tree\'s answers)',
    headers: ['Request', ...servers, 'this tree / baseline', 'this tree / bare', 'baseline / bare', 'this tree / Fastify alone'],
    rows: results.kinds.map((k) => [
      labelOf(k),
      num(k.current.rps),
      k.baseline ? num(k.baseline.rps) : notServed(k),
      num(k.bare.rps),
      num(k.fastify.rps),
      times(k.ratios.rps),
      percent(k.ratios.currentVsBare),
      percent(k.ratios.baselineVsBare),
      percent(k.ratios.currentVsFastify),
    ]),
  };
  const peak = (of: (k: KindComparison) => number | undefined) => num(Math.max(0, ...results.kinds.map((k) => of(k) ?? 0)));
  const memory: Table = {
    title: 'Server RSS, MB',
    headers: ['Build', 'after start', 'peak under load'],
    rows: [
      ['this tree', num(results.startRssMb.current), peak((k) => k.current.rssPeakMb)],
      ['baseline', num(results.startRssMb.baseline), peak((k) => k.baseline?.rssPeakMb)],
    ],
  };
  return [cpu, rps, memory];
}

export function renderComparisonText(results: CompareResults): string {
  return tablesAsText(describeComparison(results), tables(results));
}

export function renderComparisonMarkdown(results: CompareResults, headingLevel = 2): string {
  return tablesAsMarkdown(describeComparison(results), tables(results), headingLevel);
}

/** Replaces the comparison of builds in `file` (docs/benchmarks.md) with `results`. */
export function writeComparison(file: string, results: CompareResults): void {
  writeBetween(file, markers.compare, renderComparisonMarkdown(results, 3));
}
