/**
 * Security headers (decision D26). Every answer gets three: a Content-Security-Policy that loads nothing and
 * may not be framed, `nosniff`, no referrer; the set is fixed, so it is computed once and added by one hook
 * (what @fastify/helmet does, without building its middleware again on each request). The server's HTML pages
 * (the docs, `/`, the dashboard) replace that policy with a page's (`sendPage`): this origin's scripts, styles
 * and images, their own inline scripts by hash (never `unsafe-inline` for scripts), and add the headers that
 * only mean something to a document a browser shows: `X-Frame-Options` for browsers without
 * `frame-ancestors`, an opener policy, no Flash or PDF cross-domain policies.
 *
 * Why not the page set on every answer: for JSON or an event stream, those headers and the page policy's
 * directives change nothing a browser does, and each header costs every answer work (Fastify stores it, node
 * checks its name and value and writes it); the same goes for `Cross-Origin-Resource-Policy: cross-origin`,
 * which only speaks to a page of another origin embedding an answer without CORS, which no answer here is for.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';

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

/** Every answer's: nothing to load, never framed, its type not guessed, no referrer sent from it. */
export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': serialize({ 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] }),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** An HTML page's, beside its policy (`pagePolicy`). */
const PAGE_HEADERS: Record<string, string> = {
  // For browsers without frame-ancestors.
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'x-permitted-cross-domain-policies': 'none',
};

/** The strict page policy, for pages without inline scripts or styles (the dashboard's). */
export const STRICT_PAGE_POLICY = serialize(STRICT);

export function addSecurityHeaders(app: FastifyInstance): void {
  // A callback hook: no promise on every request.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(SECURITY_HEADERS);
    done();
  });
}

/**
 * Sends an HTML page with the page headers and its policy (replacing every answer's).
 *
 * @example
 * return sendPage(reply, html, pagePolicy(html, { inlineStyles: true }));
 */
export function sendPage(reply: FastifyReply, html: string, policy: string): FastifyReply {
  return reply.type('text/html; charset=utf-8').headers(PAGE_HEADERS).header('content-security-policy', policy).send(html);
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
