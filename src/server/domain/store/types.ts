/**
 * The one interface behind which the server keeps its state: API keys (stored as hashes) and daily image
 * usage. Two implementations: SQLite (default, survives restarts) and memory (tests, quick mocks).
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
  close(): void;
}
