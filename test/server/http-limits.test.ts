/**
 * What happens below the routes, tried over raw sockets as a careless or hostile client would: the contract's
 * `{error}` shape for what Node's parser and Fastify's router refuse, bodies that JSON.parse would misread
 * (D24), JSON that would hold the event loop (D22), and the security headers (D26). The time limits (D25)
 * are in time-limits.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDocsPage } from '../../scripts/lib/docs-page.ts';
import { useServer } from '../helpers/server.ts';
import { call, chatBody, openSocket, parseRaw, untilClosed } from './http.ts';

// The docs page (/docs) is what `npm run docs` writes: built here rather than left to another file's tests,
// which may run later; and before the server starts, as building it holds this process's event loop for seconds.
beforeAll(() => void buildDocsPage(), 60_000);
// The default time limits: a body of megabytes must not meet a limit made short for time-limits.test.ts on a loaded machine.
const server = useServer();
const key = 'sk-demo-starter';

describe('errors below the routes answer {error}', () => {
  it('a malformed header → 400', async () => {
    const socket = await openSocket(server.baseUrl);
    const closed = untilClosed(socket);
    socket.write('GET /v1/models HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n');
    const answer = parseRaw(await closed);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: expect.stringMatching(/^Malformed HTTP request/) });
  });

  it('headers over 16 KiB → 431', async () => {
    const socket = await openSocket(server.baseUrl);
    const closed = untilClosed(socket);
    socket.write(`GET /v1/models HTTP/1.1\r\nHost: x\r\nx-padding: ${'a'.repeat(20_000)}\r\n\r\n`);
    const answer = parseRaw(await closed);
    expect(answer.status).toBe(431);
    expect(answer.body).toEqual({ error: 'The request line and headers are larger than 16384 bytes.' });
  });

  it('a path parameter over its length limit → 414, a path that does not decode → 400', async () => {
    const long = await call(server.baseUrl, 'DELETE', `/dashboard/api/keys/${'k'.repeat(500)}`);
    expect(long.status).toBe(414);
    expect(long.body).toEqual({ error: expect.stringContaining('too long') });
    const bad = await call(server.baseUrl, 'DELETE', '/dashboard/api/keys/%zz');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: expect.stringContaining('not valid') });
  });
});

describe('bodies JSON.parse would misread (decision D24)', () => {
  it.each([
    ['max_tokens', '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"max_tokens":1e309}'],
    ['seed', '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"seed":-1E400}'],
  ])('a number beyond a double (%s) → 400', async (field, raw) => {
    const res = await call(server.baseUrl, 'POST', '/v1/chat/completions', { key, raw });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: `Request body has a number too large to represent at '${field}'; numbers must be finite.` });
  });

  it('a string that looks like a huge number is just a string', async () => {
    const res = await call(server.baseUrl, 'POST', '/v1/chat/completions', { key, body: chatBody({ messages: [{ role: 'user', content: 'Is 1e309 finite?' }] }) });
    expect(res.status).toBe(200);
  });

  it('the same key twice in one object → 400 naming it, at any depth', async () => {
    const top = await call(server.baseUrl, 'POST', '/v1/chat/completions', { key, raw: '{"model":"gpt-4o-mini","model":"gpt-4o","messages":[]}' });
    expect(top.status).toBe(400);
    expect(top.body).toEqual({ error: "Request body has the key 'model' twice in one object; send each key once." });
    const nested = await call(server.baseUrl, 'POST', '/v1/chat/completions', {
      key,
      raw: '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"a","role":"system"}]}',
    });
    expect(nested.body).toEqual({ error: "Request body has the key 'role' twice in one object; send each key once." });
  });
});

describe('an operation that takes no body', () => {
  it('ignores an empty one sent with Content-Type: application/json, as many clients send it', async () => {
    const created = await call(server.baseUrl, 'POST', '/v1/responses', { key, body: { model: 'gpt-4o-mini', input: 'Hi' } });
    expect(created.status).toBe(200);
    const id = (created.body as { id: string }).id;
    const res = await fetch(`${server.baseUrl}/v1/responses/${id}`, { method: 'DELETE', headers: { 'x-api-key': key, 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id, object: 'response.deleted', deleted: true });
  });
});

describe('JSON that would hold the event loop (decision D22)', () => {
  // `{"model", "messages": [{"role", "content"}], "extra": [n elements]}`: 6 values besides the elements.
  const withExtra = (elements: string) => `{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"extra":[${elements}]}`;
  const limit = 50_000;

  it('admits exactly 50,000 values and refuses one more with a 413 naming the limit', async () => {
    const atLimit = await call(server.baseUrl, 'POST', '/v1/chat/completions', { key, raw: withExtra(Array(limit - 6).fill('0').join(',')) });
    expect(atLimit.status).toBe(200);
    const over = await call(server.baseUrl, 'POST', '/v1/chat/completions', { key, raw: withExtra(Array(limit - 5).fill('0').join(',')) });
    expect(over.status).toBe(413);
    expect(over.body).toEqual({ error: 'Request body holds more than 50,000 JSON values (each object member and array element counts one); send at most 50,000.' });
  });

  it('refuses 1.5 million distinct keys in 17 MB (two seconds of JSON.parse) without parsing them', async () => {
    const keys = Array.from({ length: 1_500_000 }, (_, i) => `"k${i}":0`).join(',');
    const res = await call(server.baseUrl, 'POST', '/v1/chat/completions', { key, raw: `{"model":"gpt-4o-mini","messages":[],"metadata":{${keys}}}` });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: expect.stringContaining('more than 50,000 JSON values') });
  });

  it('counts values, not the brackets, commas and quotes inside strings', async () => {
    const content = `${'[{,\\"'.repeat(60_000)}"]}`;
    const res = await call(server.baseUrl, 'POST', '/v1/chat/completions', { key, body: chatBody({ messages: [{ role: 'user', content }] }) });
    expect(res.status).toBe(200);
  });

  it('admits 128 levels of nesting and refuses 129, and 100,000 levels answer 413, not a stack overflow', async () => {
    // The body itself and `extra` are two levels; the rest is nested arrays.
    const nested = (levels: number) => withExtra('['.repeat(levels - 2) + ']'.repeat(levels - 2));
    expect((await call(server.baseUrl, 'POST', '/v1/chat/completions', { key, raw: nested(128) })).status).toBe(200);
    const over = await call(server.baseUrl, 'POST', '/v1/chat/completions', { key, raw: nested(129) });
    expect(over.status).toBe(413);
    expect(over.body).toEqual({ error: 'Request body nests objects and arrays more than 128 levels deep; send at most 128.' });
    for (const path of ['/v1/chat/completions', '/v1/responses']) {
      const deep = `{"model":"gpt-4o-mini","input":"hi","messages":[],"tools":[{"type":"function","function":{"name":"f","parameters":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}}]}`;
      const res = await call(server.baseUrl, 'POST', path, { key, raw: deep });
      expect(res.status).toBe(413);
    }
  });

  it('answers the Anthropic operations in their own shape', async () => {
    const res = await call(server.baseUrl, 'POST', '/v1/messages', { key, raw: `{"model":"gpt-4o-mini","max_tokens":10,"messages":[{"role":"user","content":${'['.repeat(200)}${']'.repeat(200)}}]}` });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ type: 'error', error: { type: 'request_too_large', message: 'Request body nests objects and arrays more than 128 levels deep; send at most 128.' } });
  });
});

describe('security headers on every answer (decision D26)', () => {
  it.each(['/v1/models', '/docs', '/dashboard', '/', '/nowhere', '/openapi.json'])('%s', async (path) => {
    const res = await fetch(`${server.baseUrl}${path}`, { headers: { 'x-api-key': key } });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const policy = res.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("default-src 'none'");
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  });

  it.each(['/v1/models', '/nowhere', '/openapi.json', '/dashboard/assets/dashboard.js'])('%s, no page, loads nothing and has no page headers', async (path) => {
    const res = await fetch(`${server.baseUrl}${path}`, { headers: { 'x-api-key': key } });
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options')).toBeNull();
    expect(res.headers.get('cross-origin-opener-policy')).toBeNull();
  });

  it.each(['/docs', '/dashboard', '/'])('%s, a page, has the page headers and loads only from this origin', async (path) => {
    const res = await fetch(`${server.baseUrl}${path}`);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(res.headers.get('x-permitted-cross-domain-policies')).toBe('none');
    const policy = res.headers.get('content-security-policy') ?? '';
    expect(policy).toMatch(/(^|; )script-src 'self'/);
    expect(policy).toContain("base-uri 'none'");
    // One policy, the page's: two would each be enforced, the stricter one blocking the page's own scripts.
    expect(policy).not.toContain(',');
  });

  it('serves a favicon', async () => {
    const res = await fetch(`${server.baseUrl}/favicon.ico`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await res.arrayBuffer()).subarray(1, 4).toString()).toBe('PNG');
  });
});
