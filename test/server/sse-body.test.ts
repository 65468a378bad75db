/**
 * How sendEvents sends an answer made whole beforehand: one body with its length when it fits in one batch,
 * a stream of batches otherwise; the same events either way, over real HTTP.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendEvents, type SseEvent } from '../../src/server/http/sse.ts';
import { readEvents } from './sse.ts';

let app: FastifyInstance;
let baseUrl: string;

function* numbered(count: number, size: number): Generator<SseEvent> {
  for (let i = 0; i < count; i++) yield { data: { i, text: 'x'.repeat(size) } };
  yield { data: '[DONE]' };
}

beforeAll(async () => {
  app = Fastify();
  app.get('/events', async (request, reply) => {
    const { count, size, pace } = request.query as Record<string, string>;
    return sendEvents(reply, numbered(Number(count), Number(size)), { paceMs: Number(pace ?? 0) });
  });
  app.get('/failing', async (_request, reply) =>
    sendEvents(
      reply,
      (function* () {
        yield { data: { ok: true } };
        throw new Error('broken source');
      })(),
    ),
  );
  baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(() => app.close());

async function events(query: string) {
  const res = await fetch(`${baseUrl}/events?${query}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  expect(res.headers.get('cache-control')).toBe('no-cache');
  return { res, data: await readEvents(res) };
}

const expected = (count: number, size: number) => [...Array.from({ length: count }, (_, i) => JSON.stringify({ i, text: 'x'.repeat(size) })), '[DONE]'];

describe('an answer made whole beforehand', () => {
  it('that fits in one batch is one body with a Content-Length', async () => {
    const { res, data } = await events('count=20&size=10');
    expect(res.headers.get('transfer-encoding')).toBeNull();
    expect(Number(res.headers.get('content-length'))).toBeGreaterThan(20 * 10);
    expect(data).toEqual(expected(20, 10));
  });

  it('that does not is streamed in batches, the first batch included', async () => {
    const { res, data } = await events('count=300&size=200');
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    expect(res.headers.get('content-length')).toBeNull();
    expect(data).toEqual(expected(300, 200));
  });

  it('paced, is streamed event by event', async () => {
    const { res, data } = await events('count=3&size=1&pace=1');
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    expect(data).toEqual(expected(3, 1));
  });

  it('whose source fails before anything is sent gets an error answer, not a cut stream', async () => {
    const res = await fetch(`${baseUrl}/failing`);
    expect(res.status).toBe(500);
  });
});
