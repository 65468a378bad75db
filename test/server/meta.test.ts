import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useServer } from '../helpers/server.ts';

const server = useServer({ corsOrigins: ['http://localhost:5173'] });

describe('what the server offers beside the API', () => {
  it('serves the bundled contract at /openapi.json', async () => {
    const res = await fetch(`${server.baseUrl}/openapi.json`);
    expect(await res.json()).toEqual(JSON.parse(readFileSync('generated/openapi.json', 'utf8')));
  });

  it('links the docs, the spec and the dashboard from /', async () => {
    const html = await (await fetch(`${server.baseUrl}/`)).text();
    for (const href of ['/docs', '/openapi.json', '/dashboard']) expect(html).toContain(`href="${href}"`);
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

  it('exposes the quota and billing headers to browser code', async () => {
    const res = await fetch(`${server.baseUrl}/v1/models`, { headers: { origin: 'http://localhost:5173' } });
    expect(res.headers.get('access-control-expose-headers')).toContain('retry-after');
  });
});
