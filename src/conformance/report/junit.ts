/** JUnit XML for CI: one test suite per operation, one test case per check. */
import { groupByOperation, type Report } from '../results.ts';
import { formatExchange } from './exchange.ts';

/**
 * @example
 * writeFileSync('conformance.xml', toJunit(report));
 */
export function toJunit(report: Report): string {
  const suites: string[] = [];
  for (const [operationId, results] of groupByOperation(report.results)) {
    const cases = results.map((r) => {
      const open = `    <testcase classname="${esc(`conformance.${operationId}`)}" name="${esc(`${r.id}: ${r.title}`)}" time="${(r.durationMs / 1000).toFixed(3)}"`;
      if (r.outcome === 'passed') return `${open}/>`;
      // A waived deviation passes, with what was waived in its output.
      if (r.outcome === 'waived') return `${open}>\n      <system-out>${esc(r.violations.map((v) => `waived (${v.ruleId ?? r.id}): ${v.message}`).join('\n'))}</system-out>\n    </testcase>`;
      if (r.outcome === 'skipped') return `${open}>\n      <skipped message="${esc(r.reason ?? '')}"/>\n    </testcase>`;
      const text = r.violations
        .filter((v) => !v.waived)
        .map((v) => [v.message, `rule: ${v.ruleId ? `${v.ruleId} — ` : ''}${v.rule}${v.url ? ` (${v.url})` : ''}`, ...(v.exchange ? formatExchange(v.exchange, 2000) : [])].join('\n'))
        .join('\n\n');
      const broken = r.violations.filter((v) => !v.waived);
      const message = broken.map((v) => v.message).join('; ');
      return `${open}>\n      <failure message="${esc(message)}" type="${esc(broken[0]?.ruleId ?? broken[0]?.rule ?? 'violation')}">${esc(text)}</failure>\n    </testcase>`;
    });
    const count = (o: string) => results.filter((r) => r.outcome === o).length;
    const time = results.reduce((s, r) => s + r.durationMs, 0) / 1000;
    suites.push(
      `  <testsuite name="${esc(operationId)}" tests="${results.length}" failures="${count('failed')}" skipped="${count('skipped')}" errors="0" time="${time.toFixed(3)}">\n${cases.join('\n')}\n  </testsuite>`,
    );
  }
  const { passed, failed, skipped, waived } = report.summary;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="gateway-conformance ${esc(report.contracts.join('+'))} (${esc(report.profile)}) ${esc(report.baseUrl)}" tests="${passed + failed + skipped + waived}" failures="${failed}" skipped="${skipped}" errors="0" time="${(report.durationMs / 1000).toFixed(3)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

function esc(text: string): string {
  return text
    // Characters XML 1.0 cannot hold at all.
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}
