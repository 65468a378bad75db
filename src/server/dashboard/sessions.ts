/**
 * Dashboard sessions: signing in with the admin token gives a random session id in an HttpOnly,
 * SameSite=Strict cookie scoped to `/dashboard`. Sessions live in memory only, so a restart signs
 * everyone out (the admin token still works, and signing in again takes a second).
 */
import { randomBytes } from 'node:crypto';

export const SESSION_COOKIE = 'gateway_admin';
/** Twelve hours: a working day at the dashboard without signing in again. */
export const SESSION_SECONDS = 12 * 60 * 60;
/** A bound on memory: only the admin can open sessions, but a script in a loop should not grow the map forever. */
const MAX_SESSIONS = 1000;

export interface Sessions {
  /** Opens a session and returns its id (the cookie's value). */
  open(): string;
  /** Whether the id names a session that has not expired. */
  isValid(id: string | undefined): boolean;
  close(id: string | undefined): void;
}

/**
 * @example
 *   const sessions = createSessions(() => new Date());
 *   const id = sessions.open();
 *   sessions.isValid(id); // true
 */
export function createSessions(now: () => Date): Sessions {
  const expiries = new Map<string, number>();

  function prune(at: number): void {
    for (const [id, expiry] of expiries) if (expiry <= at) expiries.delete(id);
    // Maps iterate in insertion order: the first entries are the oldest sessions.
    for (const id of expiries.keys()) {
      if (expiries.size < MAX_SESSIONS) break;
      expiries.delete(id);
    }
  }

  return {
    open() {
      const at = now().getTime();
      prune(at);
      const id = randomBytes(32).toString('base64url');
      expiries.set(id, at + SESSION_SECONDS * 1000);
      return id;
    },
    isValid(id) {
      if (!id) return false;
      const expiry = expiries.get(id);
      if (expiry === undefined) return false;
      if (expiry > now().getTime()) return true;
      expiries.delete(id);
      return false;
    },
    close(id) {
      if (id) expiries.delete(id);
    },
  };
}

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
