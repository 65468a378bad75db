/**
 * An exchange as the reports show it: keys masked (reports end up in CI logs), the headers that matter,
 * bodies cut to a readable length.
 */
import type { Exchange } from '../http.ts';

/** Response headers every HTTP server sends that say nothing about the contract. */
const NOISE = /^(date|connection|keep-alive|transfer-encoding|vary|access-control-.*|sl-violations|etag|server)$/;

/** Headers that carry a secret whatever the description calls them: `x-api-key`, `api-key`, `x-auth-token`… */
const SECRET = /(^|-)(api-?key|key|token|secret)$/i;

/** `sk-demo-starter` → `sk-demo…`; Bearer and Basic credentials alike. */
export function maskSecret(name: string, value: string): string {
  const lower = name.toLowerCase();
  if (SECRET.test(lower)) return mask(value);
  if (lower === 'authorization') return value.replace(/^(\S+\s+)(.*)$/, (_, scheme: string, secret: string) => scheme + mask(secret));
  return value;
}

function mask(secret: string): string {
  return secret.length <= 7 ? secret : `${secret.slice(0, 7)}…`;
}

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/**
 * The exchange as lines of text: `→` the request, `←` the answer.
 * @example
 * formatExchange(ex, 400).join('\n');
 * // → POST http://127.0.0.1:8080/v1/chat/completions
 * //   x-api-key: sk-demo…
 * //   {"model":"gpt-4o-mini"}
 * // ← 401 application/json
 * //   {"error":"Invalid API Key."}
 */
export function formatExchange(ex: Exchange, maxBody: number): string[] {
  const lines = [`→ ${ex.request.method} ${ex.request.url}`];
  for (const [k, v] of Object.entries(ex.request.headers)) {
    if (k.toLowerCase() !== 'content-length') lines.push(`  ${k}: ${maskSecret(k, v)}`);
  }
  if (ex.request.bodyBytes > 0) {
    const shown = truncate(ex.request.body, maxBody);
    lines.push(`  ${ex.request.bodyBytes > ex.request.body.length ? `${truncate(ex.request.body, Math.min(maxBody, 200))} (${ex.request.bodyBytes} bytes in all)` : shown}`);
  }
  if (!ex.response) {
    lines.push(`← no answer: ${ex.error}`);
    return lines;
  }
  lines.push(`← ${ex.response.status} ${ex.response.contentType ?? '(no content type)'}`);
  for (const [k, v] of Object.entries(ex.response.headers)) {
    if (k !== 'content-type' && !NOISE.test(k)) lines.push(`  ${k}: ${v}`);
  }
  if (ex.response.text) lines.push(`  ${truncate(ex.response.text, maxBody)}`);
  return lines;
}
