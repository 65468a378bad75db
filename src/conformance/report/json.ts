/**
 * The report as JSON for tools: every check, and for failures the exchange with keys masked and bodies
 * cut (a base64 image or a 20 MiB body does not belong in a CI artefact).
 */
import type { Exchange } from '../http.ts';
import type { Report } from '../results.ts';
import { maskSecret, truncate } from './exchange.ts';

/**
 * @example
 * writeFileSync('conformance.json', toJson(report));
 */
export function toJson(report: Report): string {
  const results = report.results.map((r) => ({
    ...r,
    violations: r.violations.map((v) => ({ ...v, ...(v.exchange ? { exchange: slim(v.exchange) } : {}) })),
  }));
  return `${JSON.stringify({ ...report, results }, null, 2)}\n`;
}

function slim(ex: Exchange) {
  return {
    request: {
      ...ex.request,
      headers: Object.fromEntries(Object.entries(ex.request.headers).map(([k, v]) => [k, maskSecret(k, v)])),
      body: truncate(ex.request.body, 2000),
    },
    ...(ex.response
      ? { response: { status: ex.response.status, headers: ex.response.headers, body: truncate(ex.response.text, 2000) } }
      : {}),
    ...(ex.error ? { error: ex.error } : {}),
    durationMs: ex.durationMs,
  };
}
