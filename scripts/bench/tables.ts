/**
 * The reports' tables: printed with aligned columns, written as Markdown, and put between their markers in
 * `docs/benchmarks.md` (`--write-docs`), so that the docs say what was printed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { RunHeader } from './machine.ts';
import { round } from './stats.ts';

export interface Table {
  title: string;
  headers: string[];
  rows: string[][];
}

export const num = (value: number) => round(value).toLocaleString('en-US');
export const ms = (value: number) => `${round(value)}`;
export const us = (value: number | null | undefined) => (value === null || value === undefined ? '–' : String(Math.round(value)));
export const times = (ratio: number | null | undefined, digits = 2) => (ratio === null || ratio === undefined ? '' : `${ratio.toFixed(digits)}×`);
export const percent = (ratio: number | null | undefined) => (ratio === null || ratio === undefined ? '' : `${Math.round(ratio * 100)}%`);

/** A run in one line: its tree (and what it was compared with), the machine, the load average at its start and end, the servers' launch. */
export function describeRun(h: RunHeader, what: 'run' | 'comparison', against = ''): string {
  const { cores, cpu, memoryGb, node, os } = h.machine;
  const launch = [...Object.entries(h.serverEnv).map(([name, value]) => `${name}=${value}`), ...h.serverFlags].join(' ') || 'no flags';
  const tree = `${h.tree.commit.slice(0, 10)}${h.tree.modified ? ' with changes not committed' : ''}`;
  return (
    `${h.mode} ${what} of ${h.startedAt}, ${round(h.elapsedS)} s: this tree ${tree}${against}; ${cores} cores (${cpu}), ${memoryGb} GB, Node ${node}, ${os}; ` +
    `load average ${h.loadAverage.map((l) => l.toFixed(1)).join(' → ')}; servers run with ${launch}`
  );
}

/** Tables with aligned columns, after a line that says what run they are of. */
export function tablesAsText(intro: string, tables: readonly Table[]): string {
  const parts = [intro];
  for (const table of tables) {
    const all = [table.headers, ...table.rows];
    const widths = table.headers.map((_, i) => Math.max(...all.map((row) => (row[i] ?? '').length)));
    const line = (row: string[]) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd();
    parts.push(`\n${table.title}\n${line(table.headers)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n${table.rows.map(line).join('\n')}`);
  }
  return parts.join('\n');
}

/** The same tables as Markdown, each under a heading of `headingLevel`. */
export function tablesAsMarkdown(intro: string, tables: readonly Table[], headingLevel = 2): string {
  const hashes = '#'.repeat(headingLevel);
  const parts = [`_${intro}_`];
  for (const table of tables) {
    const row = (cells: string[]) => `| ${cells.map((cell) => cell.replaceAll('|', '\\|')).join(' | ')} |`;
    // Figures are right-aligned, words left-aligned.
    const numeric = (i: number) => table.rows.every((r) => /^[\d.,/ %×–()-]*$/.test(r[i] ?? ''));
    const rule = table.headers.map((_, i) => (i > 0 && numeric(i) ? '---:' : '---')).join('|');
    parts.push(`${hashes} ${table.title}\n\n${row(table.headers)}\n|${rule}|\n${table.rows.map(row).join('\n')}`);
  }
  return `${parts.join('\n\n')}\n`;
}

/** The markers of the part of `docs/benchmarks.md` each kind of run rewrites. */
export const markers = {
  figures: { start: '<!-- bench:figures:start (written by `npm run bench -- --write-docs`) -->', end: '<!-- bench:figures:end -->' },
  compare: { start: '<!-- bench:compare:start (written by `npm run bench -- --baseline <ref> --write-docs`) -->', end: '<!-- bench:compare:end -->' },
} as const;

/** Replaces what lies between a pair of markers in `file` with `markdown`; everything around them is written by hand. */
export function writeBetween(file: string, { start, end }: { start: string; end: string }, markdown: string): void {
  const text = readFileSync(file, 'utf8');
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${file} has no ${start} … ${end} markers to put the figures between`);
  writeFileSync(file, `${text.slice(0, from)}${start}\n\n${markdown}\n${end}${text.slice(to + end.length)}`);
}
