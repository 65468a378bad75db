// The pieces of dashboard access on their own: token comparison, session expiry, the cookie's text.
import { describe, expect, it } from 'vitest';
import { generateAdminToken, tokensMatch } from '../../src/server/dashboard/admin-token.ts';
import { sessionCookie, sessionIdFrom } from '../../src/server/dashboard/session-cookie.ts';
import { SESSION_SECONDS, createSessions } from '../../src/server/domain/sessions.ts';
import { createMemoryStore } from '../../src/server/domain/store/memory.ts';

describe('tokensMatch', () => {
  it('accepts only the exact token', () => {
    expect(tokensMatch('s3cret-token', 's3cret-token')).toBe(true);
    for (const guess of ['', 's3cret', 's3cret-token ', 'S3cret-token', 's3cret-tokenx']) expect(tokensMatch(guess, 's3cret-token'), guess).toBe(false);
  });
});

describe('generateAdminToken', () => {
  it('makes 32 URL-safe characters, different each time', () => {
    const made = new Set(Array.from({ length: 50 }, generateAdminToken));
    expect(made.size).toBe(50);
    for (const token of made) expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });
});

describe('sessions', () => {
  it('are valid until they expire or are closed, and are kept as hashes', async () => {
    let now = new Date('2030-01-01T00:00:00Z');
    const store = createMemoryStore();
    const sessions = createSessions(store, () => now);
    const a = await sessions.open();
    const b = await sessions.open();
    expect((await sessions.isValid(a)) && (await sessions.isValid(b))).toBe(true);
    expect(await store.sessionExpiry(a)).toBeUndefined();
    await sessions.close(a);
    expect(await sessions.isValid(a)).toBe(false);
    now = new Date(now.getTime() + SESSION_SECONDS * 1000);
    expect(await sessions.isValid(b)).toBe(false);
    expect(await sessions.isValid(undefined)).toBe(false);
    expect(await sessions.isValid('made-up')).toBe(false);
  });

  it('keep at most a thousand, dropping the oldest', async () => {
    let now = Date.parse('2030-01-01T00:00:00Z');
    // A tick between sessions, so that "oldest" is well defined.
    const sessions = createSessions(createMemoryStore(), () => new Date((now += 1000)));
    const first = await sessions.open();
    const second = await sessions.open();
    for (let i = 0; i < 999; i++) await sessions.open();
    expect(await sessions.isValid(first)).toBe(false);
    expect(await sessions.isValid(second)).toBe(true);
    await sessions.open();
    expect(await sessions.isValid(second)).toBe(false);
  });
});

describe('the session cookie', () => {
  it('is HttpOnly, SameSite=Strict and scoped to /dashboard; Secure over HTTPS', () => {
    expect(sessionCookie('abc', false)).toBe('gateway_admin=abc; Path=/dashboard; Max-Age=43200; HttpOnly; SameSite=Strict');
    expect(sessionCookie('abc', true)).toMatch(/; Secure$/);
    expect(sessionCookie('', false)).toMatch(/^gateway_admin=; Path=\/dashboard; Max-Age=0;/);
  });

  it('is found among other cookies', () => {
    expect(sessionIdFrom('theme=dark; gateway_admin=abc; other=1')).toBe('abc');
    expect(sessionIdFrom('gateway_admin=')).toBeUndefined();
    expect(sessionIdFrom('xgateway_admin=abc')).toBeUndefined();
    expect(sessionIdFrom(undefined)).toBeUndefined();
  });
});
