/**
 * The admin's sign-in sessions: signing in with the admin token opens one, named by a random id (which the
 * dashboard keeps in a cookie, see dashboard/session-cookie.ts). They live in the store, known by the hash
 * of their id, so that every instance sharing the store knows them, and a restart of a SQLite or
 * PostgreSQL gateway keeps them; they expire there too.
 */
import { hash, randomBytes } from 'node:crypto';
import type { Store } from './store/index.ts';

/** Twelve hours: a working day at the dashboard without signing in again. */
export const SESSION_SECONDS = 12 * 60 * 60;
/** A bound on what the store holds: only the admin can open sessions, but a script in a loop should not grow it forever. */
const MAX_SESSIONS = 1000;

export interface Sessions {
  /** Opens a session and returns its id (the cookie's value). */
  open(): Promise<string>;
  /** Whether the id names a session that has not expired. */
  isValid(id: string | undefined): Promise<boolean>;
  close(id: string | undefined): Promise<void>;
}

const hashOf = (id: string) => hash('sha256', id, 'hex');

/**
 * @example
 *   const sessions = createSessions(store, () => new Date());
 *   const id = await sessions.open();
 *   await sessions.isValid(id); // true
 */
export function createSessions(store: Store, now: () => Date): Sessions {
  return {
    async open() {
      const at = now();
      const id = randomBytes(32).toString('base64url');
      const expiresAt = new Date(at.getTime() + SESSION_SECONDS * 1000).toISOString();
      await store.saveSession({ hash: hashOf(id), expiresAt }, at.toISOString(), MAX_SESSIONS);
      return id;
    },
    async isValid(id) {
      if (!id) return false;
      const expiresAt = await store.sessionExpiry(hashOf(id));
      return expiresAt !== undefined && Date.parse(expiresAt) > now().getTime();
    },
    async close(id) {
      if (id) await store.deleteSession(hashOf(id));
    },
  };
}
