/**
 * The dashboard's session cookie: the session id in an HttpOnly, SameSite=Strict cookie scoped to
 * `/dashboard` (the admin API's `AdminSession` scheme), written and read here.
 */
import { SESSION_SECONDS } from '../domain/sessions.ts';

export const SESSION_COOKIE = 'gateway_admin';

/**
 * The `Set-Cookie` value for a session id, or for clearing the cookie when `id` is empty.
 *
 * @example
 *   sessionCookie('abc', false); // 'gateway_admin=abc; Path=/dashboard; Max-Age=43200; HttpOnly; SameSite=Strict'
 */
export function sessionCookie(id: string, secure: boolean): string {
  const parts = [`${SESSION_COOKIE}=${id}`, 'Path=/dashboard', `Max-Age=${id ? SESSION_SECONDS : 0}`, 'HttpOnly', 'SameSite=Strict'];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

/**
 * The session id from a `Cookie` request header, if there is one.
 *
 * @example
 *   sessionIdFrom('theme=dark; gateway_admin=abc'); // 'abc'
 */
export function sessionIdFrom(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  for (const pair of cookieHeader.split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === SESSION_COOKIE) return pair.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}
