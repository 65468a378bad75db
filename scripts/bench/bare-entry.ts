/**
 * The ceiling: a bare `node:http` server that answers each route with bytes captured from the reference
 * server (same status, headers and body), doing nothing else. What the reference server reaches of this
 * figure is what its framework, authentication, validation and generation cost.
 *
 * An event stream (`text/event-stream`) is written one event at a time, each its own `res.write`, as a
 * server that sends events as it makes them must: what the extra events of a stream cost node:http itself.
 *
 *   node scripts/bench/bare-entry.ts <replies.json>
 *
 * `replies.json` maps `"METHOD /path"` to `{ status, headers, body }` (body in base64). Prints one line
 * when it listens: `bench-ready {"port": 40123}`.
 */
import { createServer } from 'node:http';
import { readReplies, type Replay } from './replies.ts';

/** A body as the writes that send it: one for a JSON answer, one per event for an event stream. */
function writesOf(reply: Replay): Buffer[] {
  if (!reply.headers['content-type']?.startsWith('text/event-stream')) return [reply.body];
  return reply.body
    .toString('utf8')
    .split(/(?<=\n\n)/)
    .map((event) => Buffer.from(event));
}

const file = process.argv[2];
if (!file) throw new Error('usage: bare-entry.ts <replies.json>');
const replies = new Map(readReplies(file).map((r) => [`${r.method} ${r.path}`, { status: r.status, headers: r.headers, writes: writesOf(r) }]));

const server = createServer((req, res) => {
  const reply = replies.get(`${req.method} ${req.url}`);
  req.resume(); // read (and drop) any request body, as a real server must
  if (!reply) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(reply.status, reply.headers);
  const last = reply.writes.length - 1;
  for (let i = 0; i < last; i++) res.write(reply.writes[i]);
  res.end(reply.writes[last]);
});
server.keepAliveTimeout = 72_000; // as Fastify's default, so neither side closes idle connections sooner
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the server has no port');
  process.stdout.write(`bench-ready ${JSON.stringify({ port: address.port })}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
