import { describe, expect, it } from 'vitest';
import { createStore } from '../../src/server/domain/store/index.ts';
import { MEMORY_RESPONSE_CHARACTERS } from '../../src/server/domain/store/memory.ts';
import { describeStore } from './store-suite.ts';

describeStore('memory', () => createStore('memory'));

describe('the memory store', () => {
  it('forgets the oldest stored Responses beyond its bound, however recent, and keeps the rest whole', async () => {
    const store = await createStore('memory');
    const text = 'x'.repeat(1024 * 1024);
    const record = (i: number) => ({ id: `resp_${i}`, keyId: 'key-a', createdAt: `2026-11-25T00:00:${String(i).padStart(2, '0')}.000Z`, response: { text }, items: [] });
    const fit = Math.floor(MEMORY_RESPONSE_CHARACTERS / JSON.stringify(record(0)).length);
    for (let i = 0; i < fit + 5; i++) await store.saveResponse(record(i), '2026-10-26T00:00:00.000Z');
    for (let i = 0; i < 5; i++) expect(await store.findResponse(`resp_${i}`, 'key-a')).toBeUndefined();
    for (const i of [5, fit + 4]) expect(await store.findResponse(`resp_${i}`, 'key-a')).toEqual(record(i));

    // A deleted response gives its room back: the oldest kept is not forgotten for the next one.
    expect(await store.deleteResponse(`resp_${fit + 4}`, 'key-a')).toBe(true);
    await store.saveResponse(record(fit + 5), '2026-10-26T00:00:00.000Z');
    expect(await store.findResponse('resp_5', 'key-a')).toEqual(record(5));
  });
});
