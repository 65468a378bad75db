/**
 * CORS (@fastify/cors): any origin by default, or the ones configured; preflights answered before
 * authentication, since a browser sends them without the key.
 *
 * The plugin takes every `OPTIONS` request for a preflight and refuses one without `Origin` and
 * `Access-Control-Request-Method` with its own `400 text/plain`. Such a request is not a preflight but a
 * method the API does not offer, so it gets what any other such method gets from the one error handler
 * (errors.ts): 405 `{error}` with `Allow` on a known route, 404 elsewhere (decision D21).
 */
import cors from '@fastify/cors';
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

export async function registerCors(app: FastifyInstance, { origins }: CorsOptions): Promise<void> {
  // Before the plugin's own hook, which would answer first. A callback hook: no promise on every request.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.method === 'OPTIONS' && !isPreflight(request)) reply.callNotFound();
    else done();
  });
  await app.register(cors, {
    origin: origins,
    allowedHeaders: ['content-type', 'x-api-key', 'authorization', 'accept'],
    // Every response header the contract documents is readable by browser code on another origin. Joined
    // once here: the plugin would join a list again on every request.
    exposedHeaders: exposedHeaders().join(', '),
    maxAge: 600,
  });
}

/** The response headers the public contract documents, for CORS to expose. */
function exposedHeaders(): string[] {
  const names = contract.operations.flatMap((op) => Object.values(op.responses).flatMap((r) => Object.keys(contract.responseHeaders(r))));
  return [...new Set(names)];
}
