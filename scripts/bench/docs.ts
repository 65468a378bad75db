/**
 * Keeps `docs/benchmarks.md` current: the parts between markers are the latest runs' figures (rewritten by
 * `npm run bench -- --write-docs`, and by `npm run bench -- --baseline <ref> --write-docs` for the
 * comparison of builds); everything around them is written by hand.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { renderComparisonMarkdown } from './compare-report.ts';
import type { CompareResults } from './compare.ts';
import { renderMarkdown } from './report.ts';
import type { BenchResults } from './results.ts';

export const START = '<!-- bench:figures:start (written by `npm run bench -- --write-docs`) -->';
export const END = '<!-- bench:figures:end -->';
export const COMPARE_START = '<!-- bench:compare:start (written by `npm run bench -- --baseline <ref> --write-docs`) -->';
export const COMPARE_END = '<!-- bench:compare:end -->';

/** Replaces what lies between `start` and `end` in `file` with `markdown`. */
function writeBetween(file: string, start: string, end: string, markdown: string): void {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${file} has no ${start} … ${end} markers to put the figures between`);
  writeFileSync(file, `${text.slice(0, from)}${start}\n\n${markdown}\n${end}${text.slice(to + end.length)}`);
}

/**
 * Replaces the figures in `file` with those of `results`.
 *
 * @example
 *   writeFigures('docs/benchmarks.md', results);
 */
export function writeFigures(file: string, results: BenchResults): void {
  writeBetween(file, START, END, renderMarkdown(results, 3));
}

/**
 * Replaces the comparison of builds in `file` with `results`.
 *
 * @example
 *   writeComparison('docs/benchmarks.md', results);
 */
export function writeComparison(file: string, results: CompareResults): void {
  writeBetween(file, COMPARE_START, COMPARE_END, renderComparisonMarkdown(results, 3));
}
