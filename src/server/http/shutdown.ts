/**
 * Graceful shutdown (decision D23). On close the server stops accepting connections; requests already
 * running and event streams already open go on to their end; a request that still arrives on an open
 * connection gets 503 with `Retry-After` (and `Connection: close`), for the load balancer to send elsewhere.
 * After the grace period, connections still open are cut.
 */
import type { FastifyInstance } from 'fastify';
import { shuttingDown } from '../domain/errors.ts';

export function refuseWhileClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // A callback hook: no promise on every request, for the one moment it refuses.
  app.addHook('onRequest', (_request, reply, done) => {
    if (!closing) return done();
    reply.header('connection', 'close');
    done(shuttingDown());
  });
}

/**
 * Closes the app, giving what is running up to `graceMs` to finish; resolves with whether everything ended
 * on its own.
 *
 * @example
 * process.once('SIGTERM', () => void closeGracefully(app, 10_000).then(() => process.exit(0)));
 */
export async function closeGracefully(app: FastifyInstance, graceMs: number): Promise<boolean> {
  let cut = false;
  const timer = setTimeout(() => {
    cut = true;
    app.server.closeAllConnections();
  }, graceMs);
  // A kept-alive connection whose last request ends during the close would otherwise wait for its
  // keep-alive timeout: each is closed as soon as it is idle.
  const reaper = setInterval(() => app.server.closeIdleConnections(), 50);
  try {
    await app.close();
  } finally {
    clearTimeout(timer);
    clearInterval(reaper);
  }
  return !cut;
}
