/**
 * CORS: any origin by default, or the ones configured. Written here rather than taken from @fastify/cors,
 * for what it costs every answer: the plugin merged its options into a new object and resolved the origin
 * through a callback on each request, and exposed the documented headers on answers to requests without
 * `Origin`, which no browser reads (a browser sends `Origin` on every cross-origin request). Here an answer
 * to a request from an allowed origin gets `Access-Control-Allow-Origin` (that origin) and
 * `Access-Control-Expose-Headers`; every answer gets `Vary: Origin`, since what it carries depends on it.
 *
 * A preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) is answered 204 by its own route,
 * before authentication, since a browser sends it without the key: the methods the contract's operations
 * use, the request headers a browser may send (never the admin token, nor credentials), a 10-minute cache.
 * An `OPTIONS` without those headers is not a preflight but a method the API does not offer, so it gets what
 * any other such method gets from the one error handler (error-handler.ts): 405 `{error}` with `Allow` on a known
 * route, 404 elsewhere (decision D21).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { contract } from '../../contract/index.ts';

export interface CorsOptions {
  /** `true` for any origin, or a list. */
  origins: true | string[];
}

/** Whether a request is a CORS preflight: `OPTIONS` with the two headers a browser always sends with one. */
function isPreflight(request: FastifyRequest): boolean {
  return request.headers.origin !== undefined && request.headers['access-control-request-method'] !== undefined;
}

export function registerCors(app: FastifyInstance, { origins }: CorsOptions): void {
  const listed = origins === true ? undefined : new Set(origins);
  const allowed = (origin: string | undefined): origin is string => origin !== undefined && (listed === undefined || listed.has(origin));
  // Every response header the public contract documents is readable by browser code on another origin.
  const exposed = {
    'access-control-expose-headers': [
      ...new Set(contract.operations.flatMap((op) => Object.values(op.responses).flatMap((r) => Object.keys(contract.responseHeaders(r))))),
    ].join(', '),
  };
  const preflight = {
    'access-control-allow-methods': [...new Set(contract.operations.map((op) => op.method.toUpperCase()))].join(', '),
    'access-control-allow-headers': 'content-type, x-api-key, authorization, accept',
    'access-control-max-age': '600',
  };

  // A callback hook: no promise on every request.
  app.addHook('onRequest', (request, reply, done) => {
    const origin = request.headers.origin;
    reply.header('vary', 'Origin');
    if (allowed(origin)) reply.header('access-control-allow-origin', origin).headers(exposed);
    done();
  });
  app.options('*', (request, reply) => {
    if (!isPreflight(request)) return reply.callNotFound();
    return reply.code(204).headers(preflight).send();
  });
}
