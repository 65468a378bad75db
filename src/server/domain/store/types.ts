/**
 * The one interface behind which the server keeps its state: API keys (stored as hashes), daily image
 * usage, and stored responses of the Responses API. Two implementations: SQLite (default, survives restarts) and memory (tests, quick mocks).
 * Every method is synchronous, so within one process each call is atomic: no two requests can interleave
 * inside `reserveImages`, which keeps the quota exact under concurrency.
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

export interface Store {
  /** Adds a key; when a key with the same hash exists it is returned unchanged (demo keys at every start). */
  createKey(key: NewApiKey): ApiKeyRecord;
  findKeyByHash(hash: string): ApiKeyRecord | undefined;
  listKeys(): ApiKeyRecord[];
  /** Marks a key revoked; false when there is no such key. */
  revokeKey(id: string, at?: Date): boolean;
  touchKey(id: string, at: Date): void;
  /** Images counted for a key on a UTC day (`YYYY-MM-DD`). */
  imagesUsed(keyId: string, day: string): number;
  /** Counts `n` images if `used + n <= limit`, else counts nothing. Atomic. */
  reserveImages(keyId: string, day: string, n: number, limit: number): Reservation;
  /** Gives back images that were reserved but not produced. */
  releaseImages(keyId: string, day: string, n: number): void;
  /** Keeps a response, and forgets every response created before `expireBefore` (ISO 8601). */
  saveResponse(record: StoredResponse, expireBefore: string): void;
  /** A response of this key, or undefined (another key's response is not found either). */
  findResponse(id: string, keyId: string): StoredResponse | undefined;
  /** Deletes a response of this key; false when there is none. */
  deleteResponse(id: string, keyId: string): boolean;
  close(): void;
}
