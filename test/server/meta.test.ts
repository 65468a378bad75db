import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDocsPage } from '../../scripts/lib/docs-page.ts';
import { startServer, useServer } from '../helpers/server.ts';

const server = useServer({ corsOrigins: ['http://localhost:5173'] });

// The admin API's page, as `npm run docs` (and so `npm start`) builds it; a clean clone has none yet.
beforeAll(() => void buildDocsPage('dist/docs/admin.html', 'generated/admin/openapi.json'), 60_000);

describe('what the server offers beside the API', () => {
  /** A bundle as the server sends it: naming the address it is served from where it names its first server. */
  function asServed(bundle: string): unknown {
    const text = readFileSync(bundle, 'utf8');
    const address = (JSON.parse(text) as { servers: Array<{ url: string }> }).servers[0]!.url;
    return JSON.parse(text.replaceAll(address, server.baseUrl));
  }

  it('serves the bundled contract at /openapi.json', async () => {
    const res = await fetch(`${server.baseUrl}/openapi.json`);
    expect(await res.json()).toEqual(asServed('generated/openapi.json'));
  });

  it("serves the admin API's own description, apart from the contract, and its docs page", async () => {
    const res = await fetch(`${server.baseUrl}/dashboard/api/openapi.json`);
    const admin = await res.json();
    expect(admin).toEqual(asServed('generated/admin/openapi.json'));
    expect(Object.keys(admin.paths).every((path: string) => path.startsWith('/dashboard/api/'))).toBe(true);
    const docs = await fetch(`${server.baseUrl}/docs/admin`);
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await docs.text()).toContain(admin.info.title);
  });

  it('links the docs, the spec and the dashboard from /', async () => {
    const html = await (await fetch(`${server.baseUrl}/`)).text();
    for (const href of ['/docs', '/openapi.json', '/dashboard', '/docs/admin']) expect(html).toContain(`href="${href}"`);
  });

  it('answers CORS preflight for an allowed origin only', async () => {
    const preflight = (origin: string) =>
      fetch(`${server.baseUrl}/v1/chat/completions`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-api-key, content-type' },
      });
    const allowed = await preflight('http://localhost:5173');
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(allowed.headers.get('access-control-allow-headers')).toContain('x-api-key');
    const other = await preflight('http://evil.example');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it.each([
    ['no CORS header', {}],
    ['an Origin but no Access-Control-Request-Method', { origin: 'http://localhost:5173' }],
    ['an Access-Control-Request-Method but no Origin', { 'access-control-request-method': 'GET' }],
  ])('answers an OPTIONS with %s as any other method the route lacks: 405 {error} with Allow (D21)', async (_what, headers) => {
    const res = await fetch(`${server.baseUrl}/v1/models`, { method: 'OPTIONS', headers });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.json()).toEqual({ error: 'Method OPTIONS is not allowed on /v1/models; use GET.' });

    const unknown = await fetch(`${server.baseUrl}/v1/nowhere`, { method: 'OPTIONS', headers });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: expect.stringMatching(/^No route OPTIONS \/v1\/nowhere\./) });
  });

  it('gives a preflight the security headers of every answer', async () => {
    const res = await fetch(`${server.baseUrl}/v1/models`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('gives an event stream the same CORS headers as any other answer', async () => {
    const res = await fetch(`${server.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { origin: 'http://localhost:5173', 'x-api-key': 'sk-demo-starter', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], stream: true }),
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(res.headers.get('access-control-expose-headers')).toContain('x-gateway-billed-tokens');
    expect(res.headers.get('x-gateway-billed-tokens')).toMatch(/^\d+$/);
    await res.text();
  });

  it('sends no CORS header to a request without Origin or from another origin, and Vary: Origin to both', async () => {
    for (const headers of [{}, { origin: 'http://evil.example' }] as Array<Record<string, string>>) {
      const res = await fetch(`${server.baseUrl}/v1/models`, { headers });
      expect(res.status).toBe(200);
      expect(res.headers.get('vary')).toBe('Origin');
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(res.headers.get('access-control-expose-headers')).toBeNull();
    }
  });

  it('allows in a preflight every method the contract has, DELETE included, and caches it ten minutes', async () => {
    const res = await fetch(`${server.baseUrl}/v1/responses/resp_123`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'DELETE', 'access-control-request-headers': 'authorization' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-methods')?.split(', ').sort()).toEqual(['DELETE', 'GET', 'POST']);
    expect(res.headers.get('access-control-allow-headers')).toBe('content-type, x-api-key, authorization, accept');
    expect(res.headers.get('access-control-max-age')).toBe('600');
    expect(await res.text()).toBe('');
  });

  it('allows any origin when none is configured', async () => {
    const open = await startServer();
    try {
      const res = await fetch(`${open.baseUrl}/v1/models`, { headers: { origin: 'https://app.example' } });
      expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example');
      expect(res.headers.get('access-control-expose-headers')).toContain('x-ratelimit-remaining-images');
      expect(res.headers.get('vary')).toBe('Origin');
    } finally {
      await open.close();
    }
  });

  it('exposes the quota and billing headers to browser code', async () => {
    const res = await fetch(`${server.baseUrl}/v1/models`, { headers: { origin: 'http://localhost:5173' } });
    expect(res.headers.get('access-control-expose-headers')).toContain('retry-after');
  });
});
