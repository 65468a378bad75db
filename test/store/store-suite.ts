/**
 * One suite every store passes (memory, SQLite, PostgreSQL): what the server relies on, stated once. Each
 * store's own test file runs it with a function that opens a fresh, empty store.
 */
import { describe, expect, it } from 'vitest';
import type { NewApiKey, Store } from '../../src/server/domain/store/index.ts';

const key = (id: string, extra: Partial<NewApiKey> = {}): NewApiKey => ({ id, name: `Key ${id}`, tier: 'pro', prefix: 'sk-abcdefg', hash: `hash-${id}`, ...extra });

export function describeStore(kind: string, open: () => Promise<Store>): void {
  /** Runs `body` on a fresh store, and closes it whatever happens. */
  const withStore = (body: (store: Store) => Promise<void>) => async () => {
    const store = await open();
    try {
      await body(store);
    } finally {
      await store.close();
    }
  };

  describe(`the ${kind} store`, () => {
    it(
      'keeps keys by hash, once: a second key with the same hash gets the first record',
      withStore(async (store) => {
        const made = await store.createKey(key('k1', { createdAt: '2026-11-01T10:00:00.000Z' }));
        expect(made).toEqual({ id: 'k1', name: 'Key k1', tier: 'pro', prefix: 'sk-abcdefg', demo: false, createdAt: '2026-11-01T10:00:00.000Z', lastUsedAt: null, revokedAt: null });
        expect(await store.createKey(key('k2', { hash: 'hash-k1', name: 'Other' }))).toEqual(made);
        expect(await store.findKeyByHash('hash-k1')).toEqual(made);
        expect(await store.findKey('k1')).toEqual(made);
        expect(await store.findKey('k2')).toBeUndefined();
        expect(await store.findKeyByHash('hash-nobody')).toBeUndefined();
        expect((await store.listKeys()).map((k) => k.id)).toEqual(['k1']);
      }),
    );

    it(
      'hands out copies without the hash, listed oldest first',
      withStore(async (store) => {
        await store.createKey(key('b', { createdAt: '2026-11-02T00:00:00.000Z', demo: true }));
        await store.createKey(key('a', { createdAt: '2026-11-01T00:00:00.000Z' }));
        const listed = await store.listKeys();
        expect(listed.map((k) => k.id)).toEqual(['a', 'b']);
        expect(listed[1]!.demo).toBe(true);
        expect(Object.keys(listed[0]!).sort()).toEqual(['createdAt', 'demo', 'id', 'lastUsedAt', 'name', 'prefix', 'revokedAt', 'tier']);
        listed[0]!.name = 'changed by a caller';
        expect((await store.findKey('a'))!.name).toBe('Key a');
      }),
    );

    it(
      'revokes a key once (its first date stays), and records its last use',
      withStore(async (store) => {
        await store.createKey(key('k'));
        expect(await store.revokeKey('k', new Date('2026-11-03T00:00:00.000Z'))).toBe(true);
        expect(await store.revokeKey('k', new Date('2026-11-04T00:00:00.000Z'))).toBe(true);
        expect(await store.revokeKey('nobody')).toBe(false);
        await store.touchKey('k', new Date('2026-11-05T12:30:00.000Z'));
        expect(await store.findKey('k')).toMatchObject({ revokedAt: '2026-11-03T00:00:00.000Z', lastUsedAt: '2026-11-05T12:30:00.000Z' });
      }),
    );

    it(
      'reserves images whole or not at all, per key and UTC day, and gives them back down to zero',
      withStore(async (store) => {
        expect(await store.reserveImages('k', '2026-11-01', 2, 3)).toEqual({ granted: true, used: 2 });
        expect(await store.reserveImages('k', '2026-11-01', 2, 3)).toEqual({ granted: false, used: 2 });
        expect(await store.reserveImages('k', '2026-11-01', 1, 3)).toEqual({ granted: true, used: 3 });
        expect(await store.reserveImages('k', '2026-11-02', 3, 3)).toEqual({ granted: true, used: 3 });
        expect(await store.reserveImages('other', '2026-11-01', 4, 3)).toEqual({ granted: false, used: 0 });
        expect(await store.imagesUsed('k', '2026-11-01')).toBe(3);
        await store.releaseImages('k', '2026-11-01', 2);
        expect(await store.imagesUsed('k', '2026-11-01')).toBe(1);
        await store.releaseImages('k', '2026-11-01', 5);
        expect(await store.imagesUsed('k', '2026-11-01')).toBe(0);
        expect(await store.imagesUsed('nobody', '2026-11-01')).toBe(0);
      }),
    );

    it(
      'grants exactly the limit to 60 reservations at once, and loses none given back',
      withStore(async (store) => {
        const results = await Promise.all(Array.from({ length: 60 }, () => store.reserveImages('k', '2026-11-01', 1, 25)));
        expect(results.filter((r) => r.granted)).toHaveLength(25);
        // A refusal counts what refused it: every image the others were granted (a 429 says none remain).
        expect(results.filter((r) => !r.granted).map((r) => r.used)).toEqual(Array.from({ length: 35 }, () => 25));
        expect(await store.imagesUsed('k', '2026-11-01')).toBe(25);
        await Promise.all(Array.from({ length: 10 }, () => store.releaseImages('k', '2026-11-01', 1)));
        expect(await store.imagesUsed('k', '2026-11-01')).toBe(15);
      }),
    );

    it(
      'keeps a response for its key only, and forgets it when deleted or expired',
      withStore(async (store) => {
        const record = (id: string, createdAt: string) => ({ id, keyId: 'key-a', createdAt, response: { id, output: [], z: 1, a: 2 }, items: [{ role: 'user', content: 'Hi' }] });
        await store.saveResponse(record('resp_old', '2026-10-01T00:00:00.000Z'), '2026-09-01T00:00:00.000Z');
        await store.saveResponse(record('resp_new', '2026-11-20T00:00:00.000Z'), '2026-09-01T00:00:00.000Z');
        const found = await store.findResponse('resp_new', 'key-a');
        expect(found).toEqual(record('resp_new', '2026-11-20T00:00:00.000Z'));
        // Read back with its keys in the order it was answered.
        expect(Object.keys(found!.response as object)).toEqual(['id', 'output', 'z', 'a']);
        expect(await store.findResponse('resp_new', 'key-b')).toBeUndefined();
        expect(await store.deleteResponse('resp_new', 'key-b')).toBe(false);
        // Saving expires what was created before the cut-off.
        await store.saveResponse(record('resp_latest', '2026-11-25T00:00:00.000Z'), '2026-10-26T00:00:00.000Z');
        expect(await store.findResponse('resp_old', 'key-a')).toBeUndefined();
        expect(await store.deleteResponse('resp_new', 'key-a')).toBe(true);
        expect(await store.findResponse('resp_new', 'key-a')).toBeUndefined();
        // A copy: changing what was returned changes nothing kept.
        ((await store.findResponse('resp_latest', 'key-a'))!.items as unknown[]).push('changed');
        expect((await store.findResponse('resp_latest', 'key-a'))!.items).toHaveLength(1);
      }),
    );

    it(
      'keeps sessions until they expire, and at most the newest `max`',
      withStore(async (store) => {
        await store.saveSession({ hash: 's1', expiresAt: '2026-11-01T12:00:00.000Z' }, '2026-11-01T00:00:00.000Z', 3);
        await store.saveSession({ hash: 's2', expiresAt: '2026-11-01T13:00:00.000Z' }, '2026-11-01T01:00:00.000Z', 3);
        expect(await store.sessionExpiry('s1')).toBe('2026-11-01T12:00:00.000Z');
        // Saving at 12:00 forgets what expired by then.
        await store.saveSession({ hash: 's3', expiresAt: '2026-11-02T00:00:00.000Z' }, '2026-11-01T12:00:00.000Z', 3);
        expect(await store.sessionExpiry('s1')).toBeUndefined();
        await store.saveSession({ hash: 's4', expiresAt: '2026-11-02T01:00:00.000Z' }, '2026-11-01T12:00:00.000Z', 3);
        await store.saveSession({ hash: 's5', expiresAt: '2026-11-02T02:00:00.000Z' }, '2026-11-01T12:00:00.000Z', 3);
        // At most three: the oldest (s2) went.
        expect(await store.sessionExpiry('s2')).toBeUndefined();
        expect(await store.sessionExpiry('s3')).toBe('2026-11-02T00:00:00.000Z');
        await store.deleteSession('s3');
        expect(await store.sessionExpiry('s3')).toBeUndefined();
        expect(await store.sessionExpiry('s5')).toBe('2026-11-02T02:00:00.000Z');
      }),
    );
  });
}
