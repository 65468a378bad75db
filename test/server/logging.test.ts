/**
 * The server's log (src/server/http/logger.ts): Fastify runs without a logger of its own, so what Fastify itself
 * reports about a request must still reach the server's, and nothing is written per request (not even a route
 * not found). Routes that misbehave on purpose are added to the app before it listens.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { logSink, type LogSink } from '../helpers/log.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A server with a route that answers twice and one that fails after answering. */
const misbehaving = (sink: LogSink) =>
  startServer({
    logger: sink.logger,
    extend(app) {
      app.get('/twice', (_request, reply) => {
        reply.send('first');
        reply.send('second');
      });
      app.get('/fails-after-answering', async (_request, reply) => {
        reply.send('answered');
        throw new Error('a fault after the answer');
      });
    },
  });

describe("the server's log", () => {
  it("receives Fastify's own warning about a reply sent twice", async () => {
    const sink = logSink('info');
    server = await misbehaving(sink);
    const res = await fetch(`${server.baseUrl}/twice`);
    expect(await res.text()).toBe('first');
    await expect.poll(() => sink.entries.find((e) => (e.err as { code?: string } | undefined)?.code === 'FST_ERR_REP_ALREADY_SENT')).toMatchObject({ level: 40 });
  });

  it("receives Fastify's report of a handler that fails after answering, with the error", async () => {
    const sink = logSink('info');
    server = await misbehaving(sink);
    expect(await (await fetch(`${server.baseUrl}/fails-after-answering`)).text()).toBe('answered');
    await expect.poll(() => sink.entries.find((e) => e.msg === 'Promise errored, but reply.sent = true was set')).toMatchObject({
      level: 50,
      err: { message: 'a fault after the answer' },
    });
  });

  it('writes nothing per request, even at trace', async () => {
    const sink = logSink('trace');
    server = await startServer({ logger: sink.logger });
    const atStart = sink.entries.length; // the line saying where it listens
    for (let i = 0; i < 3; i++) expect((await fetch(`${server.baseUrl}/v1/models`)).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/no/such/route`)).status).toBe(404);
    expect(sink.entries.slice(atStart).map((e) => e.msg)).toEqual([]);
  });
});
