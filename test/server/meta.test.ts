import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDocsPage } from '../../scripts/lib/docs-page.ts';
import { useServer } from '../helpers/server.ts';

const server = useServer({ corsOrigins: ['http://localhost:5173'] });

// The admin API's page, as `npm run docs` (and so `npm start`) builds it; a clean clone has none yet.
beforeAll(() => void buildDocsPage('dist/docs/admin.html', 'generated/admin/openapi.json'), 60_000);

describe('what the server offers beside the API', () => {
  it('serves the bundled contract at /openapi.json', async () => {
    const res = await fetch(`${server.baseUrl}/openapi.json`);
    expect(await res.json()).toEqual(JSON.parse(readFileSync('generated/openapi.json', 'utf8')));
  });

  it("serves the admin API's own description, apart from the contract, and its docs page", async () => {
    const res = await fetch(`${server.baseUrl}/dashboard/api/openapi.json`);
    const admin = await res.json();
    expect(admin).toEqual(JSON.parse(readFileSync('generated/admin/openapi.json', 'utf8')));
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

  it('exposes the quota and billing headers to browser code', async () => {
    const res = await fetch(`${server.baseUrl}/v1/models`, { headers: { origin: 'http://localhost:5173' } });
    expect(res.headers.get('access-control-expose-headers')).toContain('retry-after');
  });
});
