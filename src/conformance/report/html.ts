/**
 * `--html FILE`: the report as one self-contained page (styles inline, no script, nothing fetched), for a
 * person reading a CI artefact: the verdict first, then the failures, each with its check id, the rule it
 * breaks, the exchange and a link to the operation in the docs; then what was skipped and why; then what
 * passed.
 */
import { groupByOperation, operationLabel, type CheckResult, type Report, type Violation } from '../results.ts';
import { formatExchange } from './exchange.ts';

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Where an operation is described: the gateway's docs page at the operation (Redoc's anchor), or the vendor's page. */
function docsLink(report: Report, r: CheckResult): string {
  return r.docs ?? `${report.baseUrl}/docs#operation/${encodeURIComponent(r.operationId)}`;
}

function rule(v: Violation): string {
  const id = v.ruleId ? `<code>${esc(v.ruleId)}</code> — ` : '';
  const link = v.url ? ` (<a href="${esc(v.url)}">the vendor's reference</a>)` : '';
  return `${id}<code>${esc(v.rule)}</code>${link}`;
}

function failure(report: Report, r: CheckResult, mark = '✗'): string {
  const violations = r.violations
    .map((v) => {
      const exchange = v.exchange ? `<pre>${esc(formatExchange(v.exchange, 4000).join('\n'))}</pre>` : '';
      return `<li><p class="message">${v.waived ? '(waived) ' : ''}${esc(v.message)}</p><p class="rule">rule: ${rule(v)}</p>${exchange}</li>`;
    })
    .join('');
  return `<section class="${r.outcome}"><h3>${mark} ${esc(r.title)}</h3><p class="id"><code>${esc(r.id)}</code> · <a href="${esc(docsLink(report, r))}">${esc(operationLabel(r))} in the docs</a></p><ol>${violations}</ol></section>`;
}

function row(r: CheckResult): string {
  const note = r.outcome === 'skipped' ? ` <span class="reason">— ${esc(r.reason ?? '')}</span>` : '';
  return `<li><code>${esc(r.id)}</code> ${esc(r.title)}${note}</li>`;
}

/**
 * @example
 * writeFileSync('conformance.html', toHtml(report));
 */
export function toHtml(report: Report): string {
  const { passed, failed, skipped, waived, requests } = report.summary;
  const verdict = failed > 0 ? `✗ ${failed} failed` : '✓ conforms';
  const failures = report.results.filter((r) => r.outcome === 'failed');
  const skips = report.results.filter((r) => r.outcome === 'skipped');
  const deviations = report.results.filter((r) => r.outcome === 'waived');
  const passes = [...groupByOperation(report.results.filter((r) => r.outcome === 'passed'))];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Conformance of ${esc(report.baseUrl)}: ${esc(verdict)}</title>
<style>
  body { font: 15px/1.5 system-ui, sans-serif; margin: 2rem auto; max-width: 72rem; padding: 0 1rem; color: #1b1f24; }
  h1 { font-size: 1.5rem; } h2 { margin-top: 2rem; border-bottom: 1px solid #d0d7de; }
  .verdict { font-size: 1.25rem; font-weight: 600; color: ${failed > 0 ? '#b42318' : '#1a7f37'}; }
  section.failed { border-left: 4px solid #b42318; padding: 0 1rem; margin: 1rem 0; background: #fff6f5; }
  section.waived { border-left: 4px solid #9a6700; padding: 0 1rem; margin: 1rem 0; background: #fff8e5; }
  .message { font-weight: 600; } .rule, .id, .reason { color: #57606a; }
  pre { background: #f6f8fa; padding: .75rem; overflow-x: auto; white-space: pre-wrap; word-break: break-all; font-size: 13px; }
  code { font-size: 13px; } ul { padding-left: 1.25rem; }
</style>
</head>
<body>
<h1>Conformance of <code>${esc(report.baseUrl)}</code> to ${esc(report.contracts.join(' and '))}</h1>
<p>Profile <b>${esc(report.profile)}</b>${report.destructive ? ', destructive' : ''}, seed ${report.seed}${report.waivers.length ? `, waived: ${report.waivers.map((w) => `<code>${esc(w)}</code>`).join(', ')}` : ''}, started ${esc(report.startedAt)}, ${(report.durationMs / 1000).toFixed(1)} s, ${requests} requests.</p>
<p class="verdict">${esc(verdict)} — ${passed} passed, ${failed} failed, ${skipped} skipped${waived ? `, ${waived} waived` : ''}</p>
${failures.length > 0 ? `<h2>Failures</h2>\n${failures.map((r) => failure(report, r)).join('\n')}` : ''}
${deviations.length > 0 ? `<h2>Waived deviations</h2>\n${deviations.map((r) => failure(report, r, '~')).join('\n')}` : ''}
${report.traffic && report.traffic.undeclared.length > 0 ? `<h2>Sent by the client, not in the contract</h2>\n<p>Accepted and ignored by the contract: what real clients send that it does not describe yet.</p>\n<ul>${report.traffic.undeclared.map((f) => `<li><code>${esc(f.field)}</code> — ${f.count} exchange${f.count === 1 ? '' : 's'}, ${esc(operationLabel(f))}</li>`).join('')}</ul>` : ''}
${skips.length > 0 ? `<h2>Skipped</h2>\n<ul>${skips.map(row).join('')}</ul>` : ''}
<h2>Passed</h2>
${passes.map(([operationId, results]) => `<details><summary>${esc(operationId)} (${results.length})</summary><ul>${results.map(row).join('')}</ul></details>`).join('\n')}
</body>
</html>
`;
}
