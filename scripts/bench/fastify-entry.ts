/**
 * The framework's floor: Fastify alone (this tree's Fastify, its default options, no logger) answering each
 * route with bytes captured from the reference server (same status, headers and body) from one handler, and
 * nothing else: no hooks, no authentication, no validation, no per-request logger. Between bare node:http and
 * this server lies what Fastify costs; between this server and the reference, what the reference's own work
 * costs (authenticating the key, its hooks and headers, the logger's per-request machinery, validating the
 * request, making the answer). Without it the reference's share of bare node:http could not say which is which.
 *
 * An event stream is sent as one body, as the reference sends an answer it made whole beforehand.
 *
 *   node scripts/bench/fastify-entry.ts <replies.json>
 *
 * Prints one line when it listens: `bench-ready {"port": 40123}`.
 */
import Fastify from 'fastify';
import { readReplies } from './replies.ts';

const file = process.argv[2];
if (!file) throw new Error('usage: fastify-entry.ts <replies.json>');
const app = Fastify({ logger: false });
for (const reply of readReplies(file)) {
  app.route({
    method: reply.method,
    url: reply.path,
    // The handler is not async: an async handler's promise, resolved with the reply, costs two more turns of
    // the microtask queue, which the reference's own listing does not pay either.
    handler: (_request, res) => res.code(reply.status).headers(reply.headers).send(reply.body),
  });
}
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`bench-ready ${JSON.stringify({ port: Number(new URL(address).port) })}\n`);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
