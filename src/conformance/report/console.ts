/** The readable report: one block per operation, each failure with its rule and exchange. */
import { groupByOperation, operationLabel, type CheckResult, type Report } from '../results.ts';
import type { ListedCheck } from '../run.ts';
import { formatExchange } from './exchange.ts';

export interface ConsoleStyle {
  color: boolean;
}

const paint = (on: boolean, code: number) => (s: string) => (on ? `\x1b[${code}m${s}\x1b[0m` : s);

const MARK = { passed: '✓', failed: '✗', skipped: '-', waived: '~' } as const;

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
    bold(`Conformance of ${report.baseUrl} to ${report.contracts.join(' and ')}`) +
      dim(` — profile ${report.profile}${report.destructive ? ', destructive' : ''}, seed ${report.seed}${report.waivers.length ? `, waived: ${report.waivers.join(', ')}` : ''}`),
    '',
  ];
  for (const [operationId, results] of groupByOperation(report.results)) {
    const failed = results.filter((r) => r.outcome === 'failed').length;
    out.push(bold(operationId) + dim(` (${plural(results.length, 'check')}${failed ? `, ${failed} failed` : ''})`));
    for (const r of results) out.push(...formatResult(r, { red, green, dim }));
    out.push('');
  }
  const { passed, failed, skipped, waived, requests } = report.summary;
  if (report.traffic) {
    out.push(...trafficSection(report.traffic, bold));
    const t = report.traffic;
    const line = `${plural(t.exchanges, 'exchange')}: ${passed} conformed, ${failed} broke a rule${t.notKept ? ` (${t.notKept} of them not kept)` : ''}${t.unmatched ? `, ${t.unmatched} not in the contracts` : ''}${t.unjudged ? `, ${t.unjudged} not judged (the judge fell behind)` : ''}${t.partial ? `, ${t.partial} judged without a body longer than the proxy keeps` : ''}`;
    out.push(failed > 0 ? red(`✗ ${line}`) : green(`✓ ${line}`));
    return `${out.join('\n')}\n`;
  }
  const skips = skipSummary(report.results);
  if (skips.length > 0) out.push(bold('Skipped'), ...skips, '');
  const line = `${passed} passed, ${failed} failed, ${skipped} skipped${waived ? `, ${waived} waived` : ''} — ${plural(requests, 'request')} in ${(report.durationMs / 1000).toFixed(1)} s`;
  out.push(failed > 0 ? red(`✗ ${line}`) : green(`✓ ${line}`));
  return `${out.join('\n')}\n`;
}

/** The fields clients sent that the contract lets through without naming them: what it does not describe yet. */
function trafficSection(traffic: NonNullable<Report['traffic']>, bold: (s: string) => string): string[] {
  if (traffic.undeclared.length === 0) return [];
  const width = Math.max(...traffic.undeclared.map((f) => f.field.length));
  return [
    bold('Sent by the client, not in the contract') + ' (accepted and ignored; what the contract does not describe yet)',
    ...traffic.undeclared.map((f) => `  ${f.field.padEnd(width)}  ${plural(f.count, 'exchange')}  ${operationLabel(f)}`),
    ...(traffic.undeclaredNotListed ? [`  …and ${traffic.undeclaredNotListed} more not listed`] : []),
    '',
  ];
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** What to pass to run the checks a reason skipped, when something can be passed. */
function hint(reason: string): string | undefined {
  if (/with its tier/.test(reason)) return 'pass --key TIER=KEY, one per tier (starter, economy, pro, ultimate)';
  if (/no key given|needs two keys/.test(reason)) return 'pass --key KEY (twice for the checks between two keys), or --key TIER=KEY for the gateway';
  if (/--destructive/.test(reason)) return 'pass --destructive, with keys whose quota is fresh today';
  if (/full profile/.test(reason)) return 'pass --profile full';
  return undefined;
}

/** The skipped checks, one line per reason with their number and what to pass to run them. */
function skipSummary(results: readonly CheckResult[]): string[] {
  const byReason = new Map<string, number>();
  for (const r of results) if (r.outcome === 'skipped') byReason.set(r.reason ?? '', (byReason.get(r.reason ?? '') ?? 0) + 1);
  return [...byReason].sort((a, b) => b[1] - a[1]).map(([reason, n]) => {
    const todo = hint(reason);
    return `  ${plural(n, 'check')}: ${reason}${todo ? ` → ${todo}` : ''}`;
  });
}

/** `--list`: every check with its id, the profiles that run it, and what it verifies. */
export function formatList(checks: readonly ListedCheck[]): string {
  const width = Math.max(...checks.map((c) => c.id.length));
  const lines = checks.map((c) => `${c.id.padEnd(width)}  ${c.profiles.join(',').padEnd(14)}  ${c.title}`);
  return `${lines.join('\n')}\n\n${plural(checks.length, 'check')} (as with a key of every tier, or two keys for a vendor protocol; a run makes those its keys and the server's listing allow)\n`;
}

function formatResult(r: CheckResult, c: Record<'red' | 'green' | 'dim', (s: string) => string>): string[] {
  const id = c.dim(`[${r.id}]`);
  if (r.outcome === 'passed') return [`  ${c.green(MARK.passed)} ${r.title} ${id}`];
  if (r.outcome === 'skipped') return [c.dim(`  ${MARK.skipped} ${r.title} [${r.id}] (skipped: ${r.reason})`)];
  if (r.outcome === 'waived') {
    const rules = [...new Set(r.violations.map((v) => v.ruleId ?? r.id))];
    return [c.dim(`  ${MARK.waived} ${r.title} [${r.id}] (waived: ${rules.join(', ')})`)];
  }
  const lines = [`  ${c.red(MARK.failed)} ${r.title} ${id}`];
  for (const v of r.violations.filter((violation) => !violation.waived)) {
    lines.push(`      ${c.red(v.message)}`, c.dim(`      rule: ${v.ruleId ? `${v.ruleId} — ` : ''}${v.rule}${v.url ? ` (${v.url})` : ''}`));
    if (v.exchange) lines.push(...formatExchange(v.exchange, 600).map((l) => c.dim(`        ${l}`)));
  }
  return lines;
}

/** One progress line per finished check, for a terminal or a CI log. */
export function formatProgress(index: number, total: number, result: CheckResult): string {
  const width = String(total).length;
  return `[${String(index + 1).padStart(width)}/${total}] ${MARK[result.outcome]} ${result.id} › ${result.title}`;
}
