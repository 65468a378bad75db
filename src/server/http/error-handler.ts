/**
 * The one error handler. Every failure, whoever raises it, becomes the contract's error body (`{"error":
 * message}`, or Anthropic's shape on the operations that declare it, error-formats.ts): the
 * domain's errors by their kind, Fastify's own client errors (bad JSON, body too large, wrong content type)
 * with a message a person can act on, unknown routes 404 and known routes with the wrong method 405 with
 * `Allow`. Anything else is logged (never a key) and answers 500; the server keeps serving.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError, QuotaExceeded, type ErrorKind } from '../domain/errors.ts';
import { errorBody, gatewayErrors } from './error-formats.ts';

export { errorBody };
import { bodyTooLarge, parseJsonBody, readJsonBody } from './json-body.ts';
import { quotaHeaders } from './responses.ts';

/** The status of each kind of domain error. */
export const statusOf: Record<ErrorKind, number> = {
  invalid_request: 400,
  authentication: 401,
  permission: 403,
  not_found: 404,
  too_large: 413,
  rate_limit: 429,
  unavailable: 503,
  bad_gateway: 502,
  gateway_timeout: 504,
};

/** Sends an error answer in the shape the request's operation declares (`{error}` outside any operation). */
function send(request: FastifyRequest, reply: FastifyReply, status: number, message: string): FastifyReply {
  const format = request.routeOptions.config?.errorFormat ?? gatewayErrors;
  return reply.code(status).send(format(status, message));
}

/** Sends a domain error as its status, headers and body. */
function sendError(request: FastifyRequest, reply: FastifyReply, error: GatewayError): FastifyReply {
  if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(Math.max(1, Math.ceil(error.retryAfterSeconds))));
  // Decision D28: a wrong key stays wrong; clients that retry by themselves (Claude Code) should stop at once.
  if (error.kind === 'authentication') reply.header('x-should-retry', 'false');
  if (error instanceof QuotaExceeded) {
    // Decision D6: the quota resets at midnight UTC, and SDKs that retry a 429 by themselves must not.
    reply.headers({ 'x-should-retry': 'false', ...quotaHeaders(error.quota) });
  }
  return send(request, reply, statusOf[error.kind], error.message);
}

export function installErrorHandling(app: FastifyInstance): void {
  // Our own JSON reader and parser: bodies over a limit are refused while they arrive (D22), and malformed
  // JSON gets a precise 400 instead of a generic one. Only JSON is accepted anywhere: without the other
  // built-in parsers, any other type reaches the 415 branch of the error handler below and gets a 400 that
  // names it.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', (request, payload, done) => {
    readJsonBody(payload, request.headers['content-length']).then(
      (text) => {
        // An operation that takes no body (a DELETE, say) ignores an empty one, whatever its Content-Type:
        // clients that send `Content-Type: application/json` on every request are common.
        // The operation is looked up only for an empty body: `routeOptions` is an object Fastify builds on every read.
        if (text.trim() === '' && request.routeOptions.config?.operation?.requestContentTypes.length === 0) {
          done(null, undefined);
          return;
        }
        let body: unknown;
        try {
          body = parseJsonBody(text);
        } catch (error) {
          done(error as GatewayError, undefined);
          return;
        }
        done(null, body);
      },
      (error: GatewayError) => done(error, undefined),
    );
  });

  // Which methods each route pattern has (`/dashboard/api/keys/:keyId` as a regular expression), to tell
  // 405 from 404.
  const methodsByPattern = new Map<string, { match: RegExp; methods: Set<string> }>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const entry = methodsByPattern.get(route.url) ?? { match: routePattern(route.url), methods: new Set<string>() };
    for (const m of methods) if (m !== 'HEAD' && m !== 'OPTIONS') entry.methods.add(m);
    methodsByPattern.set(route.url, entry);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = [...methodsByPattern.values()].find((entry) => entry.match.test(path))?.methods;
    if (allowed && allowed.size > 0) {
      const allow = [...allowed].sort().join(', ');
      return reply.code(405).header('allow', allow).send(errorBody(`Method ${request.method} is not allowed on ${path}; use ${allow}.`));
    }
    return reply.code(404).send(errorBody(`No route ${request.method} ${path}. The API lives under /v1; see /docs.`));
  });

  app.setErrorHandler(async (error: FastifyError | GatewayError, request, reply) => {
    const status = error instanceof GatewayError ? statusOf[error.kind] : (error.statusCode ?? 500);
    if (status === 413) {
      // Read (and drop) the rest of the upload before answering: a client still sending its body would
      // otherwise get a broken pipe instead of this 413. Fastify asks to close the connection; draining
      // makes that unnecessary, up to a bound.
      await drain(request.raw, DRAIN_LIMIT);
      reply.removeHeader('connection');
    }
    if (error instanceof GatewayError) return sendError(request, reply, error);
    if (status === 413) return sendError(request, reply, bodyTooLarge());
    if (status === 415) {
      return send(request, reply, 400, `Content-Type must be application/json, not '${request.headers['content-type'] ?? 'none'}'.`);
    }
    if (status >= 400 && status < 500) {
      return send(request, reply, status === 404 ? 404 : 400, error.message);
    }
    request.log.error({ err: error, method: request.method, url: request.url.split('?')[0] }, 'unexpected fault');
    return send(request, reply, 500, 'Internal server error.');
  });
}

/** How much of an over-large body is read and dropped so the client can read the 413 (beyond: connection closed). */
const DRAIN_LIMIT = 256 * 1024 * 1024;

/** Consumes what is left of a request body, up to `limit` bytes. */
function drain(req: IncomingMessage, limit: number): Promise<void> {
  return new Promise((resolve) => {
    if (req.complete || req.readableEnded || req.destroyed) return resolve();
    let seen = 0;
    const finish = () => {
      req.off('data', onData);
      req.off('end', finish);
      req.off('close', finish);
      req.off('error', finish);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > limit) finish();
    };
    req.on('data', onData);
    req.once('end', finish);
    req.once('close', finish);
    req.once('error', finish);
    req.resume();
  });
}

/** A Fastify route URL as a regular expression: each `:param` matches one path segment. */
function routePattern(url: string): RegExp {
  const escaped = url.split(/(:[A-Za-z0-9_]+)/).map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${escaped.join('')}$`);
}
