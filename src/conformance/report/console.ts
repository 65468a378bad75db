/** The readable report: one block per operation, each failure with its rule and exchange. */
import { groupByOperation, type CheckResult, type Report } from '../results.ts';
import { formatExchange } from './exchange.ts';

export interface ConsoleStyle {
  color: boolean;
}

const paint = (on: boolean, code: number) => (s: string) => (on ? `\x1b[${code}m${s}\x1b[0m` : s);

const MARK = { passed: '✓', failed: '✗', skipped: '-' } as const;

/**
 * The whole report as text.
 * @example
 * process.stdout.write(formatReport(report, { color: process.stdout.isTTY }));
 */
export function formatReport(report: Report, style: ConsoleStyle = { color: false }): string {
  const red = paint(style.color, 31);
  const green = paint(style.color, 32);
  const dim = paint(style.color, 2);
  const bold = paint(style.color, 1);
  const out: string[] = [
    bold(`Conformance of ${report.baseUrl}`) +
      dim(` — profile ${report.profile}${report.destructive ? ', destructive' : ''}, seed ${report.seed}`),
    '',
  ];
  for (const [operationId, results] of groupByOperation(report.results)) {
    const failed = results.filter((r) => r.outcome === 'failed').length;
    out.push(bold(operationId) + dim(` (${results.length} checks${failed ? `, ${failed} failed` : ''})`));
    for (const r of results) out.push(...formatResult(r, { red, green, dim }));
    out.push('');
  }
  const { passed, failed, skipped, requests } = report.summary;
  const line = `${passed} passed, ${failed} failed, ${skipped} skipped — ${requests} requests in ${(report.durationMs / 1000).toFixed(1)} s`;
  out.push(failed > 0 ? red(`✗ ${line}`) : green(`✓ ${line}`));
  return `${out.join('\n')}\n`;
}

function formatResult(r: CheckResult, c: Record<'red' | 'green' | 'dim', (s: string) => string>): string[] {
  if (r.outcome === 'passed') return [`  ${c.green(MARK.passed)} ${r.title}`];
  if (r.outcome === 'skipped') return [c.dim(`  ${MARK.skipped} ${r.title} (skipped: ${r.reason})`)];
  const lines = [`  ${c.red(MARK.failed)} ${r.title}`];
  for (const v of r.violations) {
    lines.push(`      ${c.red(v.message)}`, c.dim(`      rule: ${v.rule}`));
    if (v.exchange) lines.push(...formatExchange(v.exchange, 600).map((l) => c.dim(`        ${l}`)));
  }
  return lines;
}

/** One progress line per finished check, for a terminal or a CI log. */
export function formatProgress(index: number, total: number, result: CheckResult): string {
  const width = String(total).length;
  return `[${String(index + 1).padStart(width)}/${total}] ${MARK[result.outcome]} ${result.operationId} › ${result.title}`;
}
