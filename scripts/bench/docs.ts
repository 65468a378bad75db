/**
 * Keeps `docs/benchmarks.md` current: the part between the two markers is the latest run's figures
 * (rewritten by `npm run bench -- --write-docs`); everything around it is written by hand.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { renderMarkdown } from './report.ts';
import type { BenchResults } from './results.ts';

export const START = '<!-- bench:figures:start (written by `npm run bench -- --write-docs`) -->';
export const END = '<!-- bench:figures:end -->';

/**
 * Replaces the figures in `file` with those of `results`.
 *
 * @example
 *   writeFigures('docs/benchmarks.md', results);
 */
export function writeFigures(file: string, results: BenchResults): void {
  const figures = `${START}\n\n${renderMarkdown(results, 3)}\n${END}`;
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${file} has no ${START} … ${END} markers to put the figures between`);
  writeFileSync(file, `${text.slice(0, start)}${figures}${text.slice(end + END.length)}`);
}
