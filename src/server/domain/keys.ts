/**
 * API keys: how they are made, hashed, shown and checked. Only the SHA-256 hash of a key is stored; the
 * plain key exists once, in the answer that creates it (and, for the demo keys, in the documentation).
 */
import { hash, randomBytes, randomUUID } from 'node:crypto';
import type { KeyTier } from '../../contract/index.ts';
import { unauthenticated } from './errors.ts';
import type { ApiKeyRecord, Store } from './store/index.ts';

/** The message of every refused key (the interface specification's). */
export const INVALID_KEY = 'Invalid API Key.';

/** How often `lastUsedAt` is written for one key: often enough for the dashboard, rarely enough for speed. */
const TOUCH_INTERVAL_MS = 60_000;

/** Fixed, documented demo keys, one per tier: `sk-demo-starter` … `sk-demo-ultimate`. */
export const demoKeys: ReadonlyArray<{ key: string; tier: KeyTier }> = (['starter', 'economy', 'pro', 'ultimate'] as const).map(
  (tier) => ({ key: `sk-demo-${tier}`, tier }),
);

export function hashKey(key: string): string {
  // The one-shot form: every authenticated request hashes its key, and it is faster than createHash.
  return hash('sha256', key, 'hex');
}

/** What may be shown of a key: its first 10 characters. */
function keyPrefix(key: string): string {
  return key.slice(0, 10);
}

/** A new random key: `sk-` and 40 base62 characters (about 238 bits). */
function generateKey(): string {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  const bytes = randomBytes(48);
  let body = '';
  for (const byte of bytes) {
    if (byte < 248) body += alphabet[byte % 62];
    if (body.length === 40) break;
  }
  return body.length === 40 ? `sk-${body}` : generateKey();
}

/** Creates a key in the store and returns its record with the plain key, which is never available again. */
export async function issueKey(store: Store, name: string, tier: KeyTier): Promise<{ key: string; record: ApiKeyRecord }> {
  const key = generateKey();
  const record = await store.createKey({ id: `key_${randomUUID().replace(/-/g, '').slice(0, 16)}`, name, tier, prefix: keyPrefix(key), hash: hashKey(key) });
  return { key, record };
}

/** Puts the demo keys in the store (idempotent: the same hash is never added twice). */
export async function seedDemoKeys(store: Store): Promise<void> {
  for (const { key, tier } of demoKeys) {
    await store.createKey({ id: `demo-${tier}`, name: `Demo key (${tier})`, tier, prefix: keyPrefix(key), hash: hashKey(key), demo: true });
  }
}

export interface KeyVerifier {
  /** The record of a key the gateway accepts; an `authentication` error for any other. */
  verify(key: string): Promise<ApiKeyRecord>;
}

/**
 * Checks keys against the store: unknown, revoked, and (when they are switched off) demo keys are refused.
 * Revocation takes effect on the next request, on every instance: the store is read every time.
 * `lastUsedAt` is written at most once a minute per key and instance, without waiting for it: a failed
 * write costs the dashboard a timestamp, not the caller its answer.
 *
 * @example
 * const keys = createKeyVerifier(store, { demoKeys: true, now: () => new Date() });
 * (await keys.verify('sk-demo-starter')).tier; // 'starter'
 */
export function createKeyVerifier(store: Store, options: { demoKeys: boolean; now: () => Date }): KeyVerifier {
  const lastTouched = new Map<string, number>();
  const accept = (record: ApiKeyRecord | undefined): ApiKeyRecord => {
    if (!record || record.revokedAt || (record.demo && !options.demoKeys)) throw unauthenticated(INVALID_KEY);
    const at = options.now();
    if (at.getTime() - (lastTouched.get(record.id) ?? 0) >= TOUCH_INTERVAL_MS) {
      lastTouched.set(record.id, at.getTime());
      store.touchKey(record.id, at).catch(() => lastTouched.delete(record.id));
    }
    return record;
  };
  return {
    // Not an async function: the store's promise is handed on with one `then`, where an async function awaiting
    // it would add a promise of its own on every authenticated request.
    verify: (key) => (key ? store.findKeyByHash(hashKey(key)).then(accept) : Promise.reject(unauthenticated(INVALID_KEY))),
  };
}
