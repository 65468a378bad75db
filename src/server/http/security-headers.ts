/**
 * Security headers on every answer (decision D26): a Content-Security-Policy, `nosniff`, no referrer, no
 * framing. The set is fixed, so it is computed once and added by one hook (what @fastify/helmet does, without
 * building its middleware again on each request). Pages whose HTML has inline scripts (the Redoc pages) widen
 * the policy for themselves with `pagePolicy`, by the scripts' hashes: never `unsafe-inline` for scripts.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

type Directives = Record<string, string[]>;

/** Nothing but this origin's scripts, styles, images and API; no plug-ins, no framing, no `<base>`. */
const STRICT: Directives = {
  'default-src': ["'none'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'form-action': ["'self'"],
  'base-uri': ["'none'"],
  'frame-ancestors': ["'none'"],
};

const serialize = (directives: Directives) =>
  Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');

export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': serialize(STRICT),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  // For browsers without frame-ancestors.
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  // The API is meant to be called from other origins (CORS decides who may read the answers).
  'cross-origin-resource-policy': 'cross-origin',
  'x-permitted-cross-domain-policies': 'none',
};

export function addSecurityHeaders(app: FastifyInstance): void {
  // A callback hook: no promise on every request.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(SECURITY_HEADERS);
    done();
  });
}

/**
 * The policy for one HTML page: the strict one, plus the page's own inline scripts (by their SHA-256), and,
 * when asked, inline styles and workers made from `blob:` URLs (what Redoc needs).
 *
 * @example
 * reply.header('content-security-policy', pagePolicy(html, { inlineStyles: true, blobWorkers: true }));
 */
export function pagePolicy(html: string, allow: { inlineStyles?: boolean; blobWorkers?: boolean } = {}): string {
  const hashes = [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/gi)].map(
    ([, body]) => `'sha256-${createHash('sha256').update(body!, 'utf8').digest('base64')}'`,
  );
  // The strict policy's directives in their order, some replaced, one perhaps added (not `{ ...STRICT, more }`:
  // test/server/hidden-classes.test.ts).
  const policy = Object.assign({}, STRICT);
  policy['script-src'] = [...STRICT['script-src']!, ...new Set(hashes)];
  if (allow.inlineStyles) policy['style-src'] = [...STRICT['style-src']!, "'unsafe-inline'"];
  if (allow.blobWorkers) policy['worker-src'] = ["'self'", 'blob:'];
  return serialize(policy);
}
