import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/server/domain/store/memory.ts';
import { startServer, useServer } from '../helpers/server.ts';
import { call, chatBody } from './http.ts';

const server = useServer();

const key = 'sk-demo-starter';

describe('bad input never yields a 5xx', () => {
  it('malformed JSON → 400 saying so', async () => {
    const res = await call(server.baseUrl, 'POST', '/v1/chat/completions', { key, raw: '{"model": "gpt-4o-mini",' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/not valid JSON/);
  });

  it('an empty body → 400', async () => {
    const res = await call(server.baseUrl, 'POST', '/v1/chat/completions', { key, raw: '', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body).toHaveProperty('error');
  });

  it('a JSON array or a string instead of an object → 400', async () => {
    for (const raw of ['[]', '"hello"', 'null', '42']) {
      const res = await call(server.baseUrl, 'POST', '/v1/generation/prompt', { key, raw });
      expect(res.status, raw).toBe(400);
    }
  });

  it('a wrong type names the field', async () => {
    const res = await call(server.baseUrl, 'POST', '/v1/chat/completions', { key, body: chatBody({ max_tokens: 'ten' }) });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('/max_tokens');
  });

  it('temperature outside 0..2 → 400; 0 and 2 are fine', async () => {
    for (const [temperature, status] of [[-0.1, 400], [2.1, 400], [0, 200], [2, 200]] as const) {
      const res = await call(server.baseUrl, 'POST', '/v1/chat/completions', { key, body: chatBody({ temperature, max_tokens: 5 }) });
      expect(res.status, String(temperature)).toBe(status);
    }
  });

  it('an unknown field in a closed body → 400 naming it (decision D18), but not in chat', async () => {
    const image = await call(server.baseUrl, 'POST', '/v1/generation/image?model=image-gen', { key, body: { prompt: 'x', colour: 'red' } });
    expect(image.status).toBe(400);
    expect(image.body.error).toContain("'colour'");
    const chat = await call(server.baseUrl, 'POST', '/v1/chat/completions', { key, body: chatBody({ user: 'u-1', top_p: 1, max_tokens: 3 }) });
    expect(chat.status).toBe(200);
  });

  it('a body over 20 MiB → 413', async () => {
    const res = await call(server.baseUrl, 'POST', '/v1/generation/image/edit', { key, body: { prompt: 'x', image: 'A'.repeat(21 * 1024 * 1024) } });
    expect(res.status).toBe(413);
    expect(res.body.error).toMatch(/larger than/);
  });

  it('a non-JSON content type → 400 naming it', async () => {
    const res = await call(server.baseUrl, 'POST', '/v1/chat/completions', { key, raw: 'hello', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('text/plain');
  });

  it('an unknown route → 404 {error}; a wrong method → 405 with Allow', async () => {
    const missing = await call(server.baseUrl, 'GET', '/v1/nothing-here', { key });
    expect(missing.status).toBe(404);
    expect(missing.body).toHaveProperty('error');
    const wrong = await call(server.baseUrl, 'GET', '/v1/chat/completions', { key });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    expect(wrong.body.error).toContain('POST');
  });

  it('a wrong method on a route with a path parameter → 405 with Allow', async () => {
    const res = await call(server.baseUrl, 'PATCH', '/dashboard/api/keys/key_123');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('DELETE');
  });

  it('a missing query parameter → 400', async () => {
    const res = await call(server.baseUrl, 'POST', '/v1/generation/image', { key, body: { prompt: 'x' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain("'model'");
  });
});

describe('an unexpected fault', () => {
  it('answers 500 {error}, is logged without any key, and the server keeps serving', async () => {
    const store = createMemoryStore();
    store.reserveImages = () => {
      throw new Error('disk on fire');
    };
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const broken = await startServer({ store, logger: { level: 'info', stream: logStream } });
    try {
      const res = await call(broken.baseUrl, 'POST', '/v1/generation/image?model=image-gen', { key: 'sk-demo-pro', body: { prompt: 'x', size: '256x256' } });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: 'Internal server error.' });
      const next = await call(broken.baseUrl, 'GET', '/v1/models');
      expect(next.status).toBe(200);
      const log = lines.join('');
      expect(log).toContain('disk on fire');
      expect(log).not.toContain('sk-demo-pro');
    } finally {
      await broken.close();
    }
  });
});
