/**
 * The HTTP server's time limits (decision D25), tried over raw sockets as a slow or silent client would: on
 * a server whose limits are made short so that each test takes a second, not a minute. Nothing else runs
 * on this server, so a loaded machine cannot make an ordinary request meet these limits.
 */
import { describe, expect, it } from 'vitest';
import { useServer } from '../helpers/server.ts';
import { openSocket, parseRaw, untilClosed } from './http.ts';

const server = useServer({ timeouts: { headersMs: 500, requestMs: 1_000, keepAliveMs: 300, idleMs: 2_000 } });
const key = 'sk-demo-starter';

describe('time limits (decision D25)', () => {
  it('answers 408 {error} and closes a connection whose body trickles in too slowly', async () => {
    const socket = await openSocket(server.baseUrl);
    const closed = untilClosed(socket);
    socket.write(`POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nx-api-key: ${key}\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{`);
    const trickle = setInterval(() => socket.writable && socket.write(' '), 100);
    const answer = parseRaw(await closed);
    clearInterval(trickle);
    expect(answer.status).toBe(408);
    expect(answer.body).toEqual({ error: expect.stringMatching(/not received in time.*within 1 s/) });
  });

  it('answers 408 to headers that never end', async () => {
    const socket = await openSocket(server.baseUrl);
    const closed = untilClosed(socket);
    socket.write('GET /v1/models HTTP/1.1\r\nHost: x\r\n');
    const answer = parseRaw(await closed);
    expect(answer.status).toBe(408);
    expect(answer.body).toEqual({ error: expect.stringContaining('headers must arrive within 0.5 s') });
  });

  it('closes a kept-alive connection that sends no next request', async () => {
    const socket = await openSocket(server.baseUrl);
    const closed = untilClosed(socket);
    socket.write(`GET /v1/models HTTP/1.1\r\nHost: x\r\nx-api-key: ${key}\r\n\r\n`);
    const text = await closed;
    expect(text).toMatch(/^HTTP\/1\.1 200/);
  });
});
