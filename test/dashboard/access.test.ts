// Who may use the dashboard: the admin token (header) or the session cookie that signing in with it sets.
// Everyone else gets 401, on the operations and on the page (whose body is then the sign-in form).
import { describe, expect, it } from 'vitest';
import { adminApi } from '../../src/server/dashboard/admin-api.ts';
import { buildApp } from '../../src/server/app.ts';
import { startServer, useServer } from '../helpers/server.ts';
import { call } from '../server/http.ts';
import { ADMIN_TOKEN, admin, signIn } from './admin.ts';

const server = useServer({ adminToken: ADMIN_TOKEN });

const documented401 = (operationId: string) =>
  Object.values(adminApi.getOperation(operationId).responses['401']!.content!['application/json']!.examples!).map((e) => adminApi.deref<{ value: unknown }>(e).value);

const adminOperations = adminApi.operations.filter((op) => op.security.every((alt) => alt.length > 0));
const concretePath = (path: string) => path.replace('/dashboard/api', '').replace('{keyId}', 'demo-starter');

describe('without the admin token', () => {
  it('guards every dashboard operation the contract secures', () => {
    expect(adminOperations.map((op) => op.operationId).sort()).toEqual(['createApiKey', 'listApiKeys', 'listUpstreams', 'revokeApiKey']);
  });

  it.each(adminOperations.map((op) => [op.operationId, op] as const))('%s answers 401 with the documented message', async (_id, op) => {
    for (const auth of [{}, { token: 'wrong-token' }, { token: '' }, { cookie: 'gateway_admin=forged-session' }]) {
      const res = await admin(server.baseUrl, op.method.toUpperCase(), concretePath(op.path), {
        auth,
        ...(op.method === 'post' && { body: { name: 'Should not exist', tier: 'pro' } }),
      });
      expect(res.status, JSON.stringify(auth)).toBe(401);
      expect(documented401(op.operationId)).toContainEqual(res.body);
    }
    // Nothing was created or revoked by the refused calls.
    const { body } = await admin(server.baseUrl, 'GET', '/keys');
    expect(body.keys.some((k: { name: string }) => k.name === 'Should not exist')).toBe(false);
    expect(body.keys.find((k: { id: string }) => k.id === 'demo-starter').revokedAt).toBeNull();
  });

  it('answers the page with 401 and the sign-in form, not the key manager', async () => {
    const res = await call(server.baseUrl, 'GET', '/dashboard');
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toContain('<form id="sign-in-form"');
    expect(res.text).toContain('<label for="admin-token">Admin token</label>');
    expect(res.text).not.toContain('Create New Key');
  });

  it('serves the page to the admin token and to a session', async () => {
    const byToken = await call(server.baseUrl, 'GET', '/dashboard', { headers: { 'x-admin-token': ADMIN_TOKEN } });
    expect(byToken.status).toBe(200);
    expect(byToken.text).toContain('Create New Key');
    const cookie = await signIn(server.baseUrl);
    const bySession = await call(server.baseUrl, 'GET', '/dashboard', { headers: { cookie } });
    expect(bySession.status).toBe(200);
    expect(bySession.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(bySession.headers.get('cache-control')).toBe('no-store');
  });

  it('keeps the admin header out of CORS, so no other origin can send it from a browser', async () => {
    const res = await fetch(`${server.baseUrl}/dashboard/api/keys`, {
      method: 'OPTIONS',
      headers: { origin: 'http://elsewhere.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-admin-token' },
    });
    expect(res.headers.get('access-control-allow-headers') ?? '').not.toMatch(/x-admin-token/i);
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });
});

describe('signing in and out', () => {
  it('refuses a wrong token with 401 and sets no cookie', async () => {
    const res = await admin(server.baseUrl, 'POST', '/session', { auth: {}, body: { token: `${ADMIN_TOKEN}x` } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'That is not the admin token.' });
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('refuses a body without a token with 400', async () => {
    const res = await admin(server.baseUrl, 'POST', '/session', { auth: {}, body: { password: ADMIN_TOKEN } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^Invalid request body: /);
  });

  it('sets an HttpOnly, SameSite=Strict session cookie scoped to /dashboard that is not the token', async () => {
    const res = await admin(server.baseUrl, 'POST', '/session', { auth: {}, body: { token: ADMIN_TOKEN } });
    expect(res.status).toBe(204);
    const cookie = res.headers.get('set-cookie')!;
    const attributes = cookie.split(';').map((part) => part.trim());
    expect(attributes).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Strict', 'Path=/dashboard', 'Max-Age=43200']));
    expect(attributes[0]).toMatch(/^gateway_admin=[A-Za-z0-9_-]{40,}$/);
    expect(cookie).not.toContain(ADMIN_TOKEN);
  });

  it('gives each sign-in its own session, and signing out ends only that one', async () => {
    const first = await signIn(server.baseUrl);
    const second = await signIn(server.baseUrl);
    expect(first).not.toBe(second);
    const out = await call(server.baseUrl, 'DELETE', '/dashboard/api/session', { headers: { cookie: first } });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^gateway_admin=; .*Max-Age=0/);
    expect((await admin(server.baseUrl, 'GET', '/keys', { auth: { cookie: first } })).status).toBe(401);
    expect((await admin(server.baseUrl, 'GET', '/keys', { auth: { cookie: second } })).status).toBe(200);
  });

  it('ends a session after twelve hours', async () => {
    let clock = new Date('2030-01-01T08:00:00Z');
    const timed = await startServer({ adminToken: ADMIN_TOKEN, now: () => clock });
    try {
      const cookie = await signIn(timed.baseUrl);
      clock = new Date('2030-01-01T19:59:00Z');
      expect((await admin(timed.baseUrl, 'GET', '/keys', { auth: { cookie } })).status).toBe(200);
      clock = new Date('2030-01-01T20:00:01Z');
      expect((await admin(timed.baseUrl, 'GET', '/keys', { auth: { cookie } })).status).toBe(401);
    } finally {
      await timed.close();
    }
  });

  it('lets a wrong x-admin-token fail even beside a good cookie', async () => {
    const cookie = await signIn(server.baseUrl);
    const res = await admin(server.baseUrl, 'GET', '/keys', { auth: { cookie, token: 'wrong' } });
    expect(res.status).toBe(401);
  });
});

describe('changes with the cookie come from the dashboard origin only', () => {
  it('refuses a cross-site or cross-origin change with 403, and leaves the key alone', async () => {
    const cookie = await signIn(server.baseUrl);
    const elsewhere: Array<Record<string, string>> = [{ 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }, { origin: 'http://127.0.0.1:1' }];
    for (const headers of elsewhere) {
      const created = await admin(server.baseUrl, 'POST', '/keys', { auth: { cookie }, headers, body: { name: 'Forged', tier: 'ultimate' } });
      expect(created.status, JSON.stringify(headers)).toBe(403);
      expect(created.body).toEqual({ error: 'This change must come from the dashboard page itself (the request came from another origin).' });
      const revoked = await admin(server.baseUrl, 'DELETE', '/keys/demo-pro', { auth: { cookie }, headers });
      expect(revoked.status).toBe(403);
    }
    const { body } = await admin(server.baseUrl, 'GET', '/keys');
    expect(body.keys.find((k: { id: string }) => k.id === 'demo-pro').revokedAt).toBeNull();
    expect(body.keys.some((k: { name: string }) => k.name === 'Forged')).toBe(false);
  });

  it('accepts a same-origin change with the cookie', async () => {
    const cookie = await signIn(server.baseUrl);
    const res = await admin(server.baseUrl, 'POST', '/keys', {
      auth: { cookie },
      headers: { 'sec-fetch-site': 'same-origin', origin: server.baseUrl },
      body: { name: 'From the page', tier: 'starter' },
    });
    expect(res.status).toBe(201);
  });

  it.each([
    ['application/x-www-form-urlencoded', 'name=Forged&tier=ultimate'],
    ['text/plain', '{"name":"Forged","tier":"ultimate"}'],
  ])('refuses a %s post, which a browser could send from anywhere without asking first', async (type, raw) => {
    const cookie = await signIn(server.baseUrl);
    const res = await call(server.baseUrl, 'POST', '/dashboard/api/keys', { headers: { cookie, 'content-type': type }, raw });
    expect(res.status).toBe(400);
    const { body } = await admin(server.baseUrl, 'GET', '/keys');
    expect(body.keys.some((k: { name: string }) => k.name === 'Forged')).toBe(false);
  });
});

describe('the admin token itself', () => {
  it('is generated, random and exposed on app.dashboard when none is configured', async () => {
    const [one, two] = await Promise.all([buildApp({ store: 'memory', logger: false }), buildApp({ store: 'memory', logger: false })]);
    try {
      expect(one.dashboard.adminTokenGenerated).toBe(true);
      expect(one.dashboard.adminToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(one.dashboard.adminToken).not.toBe(two.dashboard.adminToken);
      const ok = await one.inject({ method: 'GET', url: '/dashboard/api/keys', headers: { 'x-admin-token': one.dashboard.adminToken } });
      expect(ok.statusCode).toBe(200);
      const other = await one.inject({ method: 'GET', url: '/dashboard/api/keys', headers: { 'x-admin-token': two.dashboard.adminToken } });
      expect(other.statusCode).toBe(401);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it('is the configured one when given, and a blank one counts as none', async () => {
    const configured = await buildApp({ store: 'memory', logger: false, adminToken: 'configured-token' });
    const blank = await buildApp({ store: 'memory', logger: false, adminToken: '  ' });
    try {
      expect(configured.dashboard).toMatchObject({ adminToken: 'configured-token', adminTokenGenerated: false, path: '/dashboard' });
      expect(blank.dashboard.adminTokenGenerated).toBe(true);
      expect(blank.dashboard.adminToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
      const res = await blank.inject({ method: 'GET', url: '/dashboard/api/keys', headers: { 'x-admin-token': '' } });
      expect(res.statusCode).toBe(401);
    } finally {
      await Promise.all([configured.close(), blank.close()]);
    }
  });
});
