/**
 * Authentication from the contract's security requirements: `x-api-key` wherever `ApiKeyHeader` is listed,
 * `Authorization: Bearer` wherever `BearerAuth` is (chat completions), nothing where an empty requirement is
 * listed (the model listing). Missing or unknown key: 401 `Invalid API Key.`
 */
import type { IncomingHttpHeaders } from 'node:http';
import { acceptsScheme, isPublic, type Operation } from '../contract/index.ts';
import type { Faults } from './faults.ts';
import { HttpError } from './http-error.ts';
import { hashKey } from './keys.ts';
import type { ApiKeyRecord, Store } from './store/index.ts';

export const INVALID_KEY = 'Invalid API Key.';

/** How often `lastUsedAt` is written for one key: often enough for the dashboard, rarely enough for speed. */
const TOUCH_INTERVAL_MS = 60_000;

export interface Authenticator {
  /** The key record, or null for an anonymous call to a public operation; throws 401 otherwise. */
  authenticate(op: Operation, headers: IncomingHttpHeaders): ApiKeyRecord | null;
}

/** Who an accepted-by-mistake key is, under the `bearer-unknown-accepted` fault. */
const demoRecord: ApiKeyRecord = {
  id: 'fault-unknown',
  name: 'unknown',
  tier: 'starter',
  prefix: 'sk-',
  createdAt: new Date(0).toISOString(),
  lastUsedAt: null,
  revokedAt: null,
  demo: false,
};

export function createAuthenticator(store: Store, options: { demoKeys: boolean; faults: Faults; now?: () => Date }): Authenticator {
  const { faults } = options;
  const now = options.now ?? (() => new Date());
  const lastTouched = new Map<string, number>();
  const message = faults.has('unauthorized-message') ? 'Invalid API key' : INVALID_KEY;

  function lookup(key: string, op: Operation, via: 'header' | 'bearer'): ApiKeyRecord | null {
    const record = key ? store.findKeyByHash(hashKey(key)) : undefined;
    if (!record && key && isPublic(op) && faults.has('models-unknown-key-accepted')) return null;
    if (!record && key && via === 'bearer' && faults.has('bearer-unknown-accepted')) return { ...demoRecord };
    if (!record || record.revokedAt || (record.demo && !options.demoKeys)) throw new HttpError(401, message);
    const at = now();
    const last = lastTouched.get(record.id) ?? 0;
    if (at.getTime() - last >= TOUCH_INTERVAL_MS) {
      lastTouched.set(record.id, at.getTime());
      store.touchKey(record.id, at);
    }
    return record;
  }

  return {
    authenticate(op, headers) {
      const apiKey = headers['x-api-key'];
      const authorization = headers.authorization;
      const bearerAllowed = faults.has('bearer-everywhere') || (acceptsScheme(op, 'BearerAuth') && !faults.has('bearer-refused'));
      if (apiKey !== undefined && acceptsScheme(op, 'ApiKeyHeader')) {
        return lookup(Array.isArray(apiKey) ? apiKey[0] ?? '' : apiKey.trim(), op, 'header');
      }
      if (authorization !== undefined && bearerAllowed) {
        const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
        if (match) return lookup(match[1]!, op, 'bearer');
      }
      if (isPublic(op) && !faults.has('models-require-key')) return null;
      if (faults.has('missing-key-accepted') && apiKey === undefined && authorization === undefined) return null;
      throw new HttpError(401, message);
    },
  };
}
