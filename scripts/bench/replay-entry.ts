/**
 * A server that replays answers captured from the reference server (same status, headers and bytes) and does
 * nothing else: `replay-entry.ts bare|fastify <replies.json>`. `bare` is node:http, the ceiling; an event
 * stream is written one event per `res.write`, as a server that sends events as it makes them must. `fastify`
 * is Fastify alone (no logger, no hooks), the framework's floor; an event stream is sent as one body, as the
 * reference sends an answer it made whole. Prints `bench-ready {"port": …}` when it listens.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';

/** One answer as `captureReplies` writes it. */
export interface CapturedReply {
  status: number;
  headers: Record<string, string>;
  /** base64 */
  body: string;
}

const [kind, file] = process.argv.slice(2);
if ((kind !== 'bare' && kind !== 'fastify') || !file) throw new Error('usage: replay-entry.ts bare|fastify <replies.json>');
const replies = Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, CapturedReply>).map(([route, r]) => {
  const [method, path] = route.split(' ') as [string, string];
  return { method, path, status: r.status, headers: r.headers, body: Buffer.from(r.body, 'base64') };
});
const ready = (port: number) => process.stdout.write(`bench-ready ${JSON.stringify({ port })}\n`);

if (kind === 'bare') {
  const routes = new Map(
    replies.map((r) => {
      const stream = r.headers['content-type']?.startsWith('text/event-stream');
      const writes = stream ? r.body.toString('utf8').split(/(?<=\n\n)/).map((event) => Buffer.from(event)) : [r.body];
      return [`${r.method} ${r.path}`, { ...r, writes }];
    }),
  );
  const server: Server = createServer((req, res) => {
    const reply = routes.get(`${req.method} ${req.url}`);
    req.resume(); // read (and drop) any request body, as a real server must
    if (!reply) return void res.writeHead(404).end();
    res.writeHead(reply.status, reply.headers);
    for (let i = 0; i < reply.writes.length - 1; i++) res.write(reply.writes[i]);
    res.end(reply.writes.at(-1));
  });
  server.keepAliveTimeout = 72_000; // Fastify's default, so that neither side closes idle connections sooner
  server.listen(0, '127.0.0.1', () => ready((server.address() as { port: number }).port));
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
} else {
  // Loaded only here, so that bare node:http's memory holds no Fastify.
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  for (const reply of replies) {
    // Not async: an async handler's promise costs two more turns of the microtask queue, which the reference's
    // own listing does not pay.
    app.route({ method: reply.method, url: reply.path, handler: (_request, res) => res.code(reply.status).headers(reply.headers).send(reply.body) });
  }
  ready(Number(new URL(await app.listen({ port: 0, host: '127.0.0.1' })).port));
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}
