/**
 * The admin's sign-in sessions: signing in with the admin token opens one, named by a random id (which the
 * dashboard keeps in a cookie, see dashboard/session-cookie.ts). Sessions live in memory only, so a restart
 * signs everyone out (the admin token still works, and signing in again takes a second).
 */
import { randomBytes } from 'node:crypto';

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
