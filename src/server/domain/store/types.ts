/**
 * The one interface behind which the server keeps its state: API keys (stored as hashes), daily image
 * usage, stored responses of the Responses API, and the dashboard's sign-in sessions (stored as hashes).
 * Three implementations: SQLite (default, one file, survives restarts), PostgreSQL (shared by several
 * instances of the gateway) and memory (tests, quick mocks). Every method is asynchronous, so that a
 * networked store fits like the others; each one is atomic on its own, in every store: `reserveImages`
 * grants or refuses as one step, so concurrent requests, on one instance or many, never grant more than
 * the quota.
 */
import type { KeyTier } from '../../../contract/index.ts';

export interface ApiKeyRecord {
  id: string;
  name: string;
  tier: KeyTier;
  /** The first characters of the key (`sk-demo-st…`), safe to show; the key itself is never stored. */
  prefix: string;
  /** ISO 8601 timestamps. */
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** Demo keys are switched off with the server's demo-keys option. */
  demo: boolean;
}

export interface NewApiKey {
  id: string;
  name: string;
  tier: KeyTier;
  prefix: string;
  hash: string;
  demo?: boolean;
  createdAt?: string;
}

export interface Reservation {
  granted: boolean;
  /** Images counted for the key on that day after this call. */
  used: number;
}

/** A response kept for its key (decision D29). */
export interface StoredResponse {
  id: string;
  keyId: string;
  /** ISO 8601. */
  createdAt: string;
  /** The response object as it was answered. */
  response: unknown;
  /** The conversation a continuation starts from: the input items (its predecessors' included) and its output. */
  items: unknown[];
}

/** A dashboard sign-in session, known by the hash of its id (the cookie's value is never stored). */
export interface StoredSession {
  hash: string;
  /** ISO 8601. */
  expiresAt: string;
}

export interface Store {
  /** Adds a key; when a key with the same hash exists it is returned unchanged (demo keys at every start). */
  createKey(key: NewApiKey): Promise<ApiKeyRecord>;
  findKeyByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  findKey(id: string): Promise<ApiKeyRecord | undefined>;
  listKeys(): Promise<ApiKeyRecord[]>;
  /** Marks a key revoked (an already revoked key keeps its first date); false when there is no such key. */
  revokeKey(id: string, at?: Date): Promise<boolean>;
  touchKey(id: string, at: Date): Promise<void>;
  /** Images counted for a key on a UTC day (`YYYY-MM-DD`). */
  imagesUsed(keyId: string, day: string): Promise<number>;
  /** Counts `n` images if `used + n <= limit`, else counts nothing. Atomic. */
  reserveImages(keyId: string, day: string, n: number, limit: number): Promise<Reservation>;
  /** Gives back images that were reserved but not produced (never below zero). */
  releaseImages(keyId: string, day: string, n: number): Promise<void>;
  /** Keeps a response, and forgets every response created before `expireBefore` (ISO 8601). */
  saveResponse(record: StoredResponse, expireBefore: string): Promise<void>;
  /** A response of this key, or undefined (another key's response is not found either). */
  findResponse(id: string, keyId: string): Promise<StoredResponse | undefined>;
  /** Deletes a response of this key; false when there is none. */
  deleteResponse(id: string, keyId: string): Promise<boolean>;
  /**
   * Keeps a session, and forgets those expired at `now` (ISO 8601) and the oldest beyond `max` (a bound on
   * what a script signing in in a loop can make the store hold).
   */
  saveSession(session: StoredSession, now: string, max: number): Promise<void>;
  /** When a session expires, or undefined when there is no such session. */
  sessionExpiry(hash: string): Promise<string | undefined>;
  deleteSession(hash: string): Promise<void>;
  close(): Promise<void>;
}
