/**
 * The server's log: pino, warnings and errors by default. Requests are not logged one by one (a line per request
 * would cost throughput and say nothing the client does not see); faults are, with their method and URL.
 *
 * Fastify is given no logger of its own (`logger: false`). With one, even with its request logging off, Fastify
 * spends work on every request on what only that logging uses: a child logger per request, checked for its
 * seven methods when a factory of ours makes it; listeners for the end of the response; two clock reads. The
 * server's logger is put on the app instead, and on each request and reply by the first hook, so
 * that what Fastify itself logs about a request (a reply sent twice, a handler that fails after answering)
 * still reaches it.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { pino, type DestinationStream, type LoggerOptions } from 'pino';

/** pino's options, and where the lines go (default: standard output). */
export type LogOptions = LoggerOptions & { stream?: DestinationStream };

/** Warnings and errors; keys, tokens and cookies never written. */
export const defaultLogOptions: LogOptions = {
  level: 'warn',
  redact: ['req.headers["x-api-key"]', 'req.headers.authorization', 'req.headers["x-admin-token"]', 'req.headers.cookie'],
};

/**
 * The server's logger: `false` for one that writes nothing.
 *
 * @example
 * const log = serverLogger({ level: 'info', stream: process.stderr });
 */
export function serverLogger(options: false | LogOptions): FastifyBaseLogger {
  if (options === false) return pino({ enabled: false });
  const { stream, ...settings } = options;
  return stream ? pino(settings, stream) : pino(settings);
}

/**
 * Makes `log` the app's logger and every request's and reply's. Call it first, before any other hook is added.
 *
 * @example
 * const app = Fastify({ logger: false });
 * logTo(app, serverLogger(defaultLogOptions));
 */
export function logTo(app: FastifyInstance, log: FastifyBaseLogger): void {
  app.log = log;
  app.addHook('onRequest', (request, reply, done) => {
    request.log = log;
    reply.log = log;
    done();
  });
}
