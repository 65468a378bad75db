/**
 * Event streams when the server is pressed: a client that stops reading pauses its own stream's generation
 * (memory stays bounded) while others are served; a graceful close (decision D23) lets a running stream
 * finish, answers a request still arriving on an open connection with 503 {error} and Retry-After, and
 * refuses new connections.
 */
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { streamOf } from '../../src/server/domain/answer-events.ts';
import type { ChatAnswer, ChatRequest } from '../../src/server/domain/chat.ts';
import type { Services } from '../../src/server/context.ts';
import { closeGracefully } from '../../src/server/http/shutdown.ts';
import { startServer } from '../helpers/server.ts';
import { call } from './http.ts';

const key = 'sk-demo-starter';
const streamRequest = (port: number) =>
  `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nx-api-key: ${key}\r\ncontent-type: application/json\r\n` +
  `content-length: ${Buffer.byteLength(STREAM_BODY)}\r\n\r\n${STREAM_BODY}`;
const STREAM_BODY = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Tell me a long story.' }], stream: true });

/**
 * A text service whose answers are `pieces` tokens long, counting how far the server has read them: a
 * stand-in passed through buildApp's `services`, as any other engine would be.
 */
function longAnswers(pieces: number): { services: (built: Services) => Services; read: () => number } {
  let furthest = -1;
  const services = (built: Services): Services => ({
    ...built,
    text: {
      ...built.text,
      async answerChat(request: ChatRequest): Promise<ChatAnswer> {
        const answer = await built.text.answerChat(request);
        const words = Array.from({ length: pieces }, (_, i) => ` word${i}`);
        const counted = new Proxy(words, {
          get(target, property, receiver) {
            if (typeof property === 'string' && /^\d+$/.test(property)) furthest = Math.max(furthest, Number(property));
            return Reflect.get(target, property, receiver);
          },
        });
        return { ...answer, content: words.join(''), contentPieces: counted, completionTokens: pieces, finishReason: 'stop' };
      },
      async streamChat(request: ChatRequest) {
        return streamOf(await this.answerChat(request));
      },
    },
  });
  return { services, read: () => furthest + 1 };
}

function open(baseUrl: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: Number(new URL(baseUrl).port) }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Waits until `value()` has stayed the same over ten turns of the event loop and timers. */
async function settled(value: () => number): Promise<number> {
  let last = -1;
  let same = 0;
  while (same < 10) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const now = value();
    same = now === last ? same + 1 : 0;
    last = now;
  }
  return last;
}

describe('a client that stops reading', () => {
  it('pauses its own stream: the server stops making events until the client reads again, and serves others meanwhile', async () => {
    const total = 200_000; // about 40 MB of events: far more than any socket buffers
    const answers = longAnswers(total);
    const server = await startServer({ services: answers.services });
    const socket = await open(server.baseUrl);
    try {
      let received = 0;
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (text.length < 4096) text += chunk.toString();
        // Stop reading after the first bytes, as a stalled client would.
        if (received > 0) socket.pause();
      });
      socket.write(streamRequest(Number(new URL(server.baseUrl).port)));
      await new Promise<void>((resolve) => socket.once('data', () => resolve()));
      const paused = await settled(answers.read);
      expect(text).toMatch(/^HTTP\/1\.1 200/);
      expect(paused).toBeGreaterThan(0);
      expect(paused).toBeLessThan(total / 4);
      // Meanwhile the server answers other clients.
      expect((await call(server.baseUrl, 'GET', '/v1/models', { key })).status).toBe(200);

      // Reading again, the stream resumes and ends complete.
      let tail = '';
      socket.removeAllListeners('data');
      socket.on('data', (chunk: Buffer) => {
        tail = (tail + chunk.toString()).slice(-200);
      });
      const done = new Promise<void>((resolve) => socket.on('data', () => tail.includes('data: [DONE]') && resolve()));
      socket.resume();
      await done;
      expect(answers.read()).toBe(total);
    } finally {
      socket.destroy();
      await server.close();
    }
  });
});

describe('a graceful close', () => {
  it('lets a running stream finish, answers 503 {error} to a request arriving on its connection, and takes no new connection', async () => {
    const server = await startServer({ tokenDelayMs: 20 });
    const port = Number(new URL(server.baseUrl).port);
    const socket = await open(server.baseUrl);
    let text = '';
    const firstEvent = new Promise<void>((resolve) => socket.on('data', (chunk: Buffer) => (text += chunk) && text.includes('data: {') && resolve()));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write(streamRequest(port));
    await firstEvent;

    const closing = closeGracefully(server.app, 30_000);
    // A second request pipelined on the same connection, read once the stream has ended.
    socket.write(`GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nx-api-key: ${key}\r\n\r\n`);
    await expect(call(server.baseUrl, 'GET', '/v1/models', { key })).rejects.toThrow();
    expect(await closing).toBe(true);
    await closed;

    const [stream, refused] = text.split(/(?=HTTP\/1\.1 503)/);
    expect(stream).toMatch(/^HTTP\/1\.1 200/);
    expect(stream).toContain('data: [DONE]');
    expect(refused).toMatch(/^HTTP\/1\.1 503/);
    expect(refused!.toLowerCase()).toContain('retry-after: 1');
    expect(refused!.toLowerCase()).toContain('connection: close');
    expect(refused).toContain('{"error":"The server is shutting down; try again in 1 second."}');
  });
});
