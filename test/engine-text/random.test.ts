import { describe, expect, it } from 'vitest';
import { canonicalDigest, canonicalJson, hashCanonical, hashString, Rng, sortedKeys } from '../../src/server/engine/text/random.ts';
import { GOLDEN_CHAT_REQUESTS, GOLDEN_PROMPT_REQUESTS } from './golden-requests.ts';

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 0, y: null }], c: undefined } })).toBe('{"a":{"d":[1,{"y":null,"z":0}]},"b":1}');
    expect(canonicalJson({ x: 1, y: 2 })).toBe(canonicalJson({ y: 2, x: 1 }));
  });
});

describe('sortedKeys', () => {
  it('orders keys as sort() does, by hand for small objects and by sort() for large ones', () => {
    const rng = new Rng(5);
    const alphabet = ['a', 'B', 'é', '_', '1', '😀', '\ud800', 'aa', ''];
    for (let round = 0; round < 500; round++) {
      const record: Record<string, number> = {};
      const size = rng.int(0, 40); // both sides of the hand-sorted limit
      for (let i = 0; i < size; i++) record[Array.from({ length: rng.int(1, 3) }, () => rng.pick(alphabet)).join('')] = i;
      expect(sortedKeys(record)).toEqual(Object.keys(record).sort());
    }
  });
});

describe('hashString', () => {
  it('is stable, salt-sensitive and spreads near inputs apart', () => {
    expect(hashString('hello')).toBe(hashString('hello'));
    expect(hashString('hello', 1)).not.toBe(hashString('hello', 2));
    const hashes = new Set(Array.from({ length: 1000 }, (_, i) => hashString(`request ${i}`)));
    expect(hashes.size).toBe(1000);
  });
});

describe('hashCanonical', () => {
  it('hashes exactly the characters canonicalJson writes', () => {
    const values: unknown[] = [
      ...GOLDEN_CHAT_REQUESTS,
      ...GOLDEN_PROMPT_REQUESTS,
      { b: [1, undefined, NaN, -0, 1e21, true, null], a: { '"quoted"': 'tab\there', 'ünï': 'line\nbreak \\ "q"' } },
      ['lone \ud800 surrogate', 'pair 😀', '\u0000\u001f', '', {}, []],
      'plain',
      42,
      undefined,
      null,
    ];
    for (const value of values) {
      for (const salt of [0, 1, 2]) expect(hashCanonical(value, salt)).toBe(hashString(canonicalJson(value), salt));
      expect(canonicalDigest(value).length).toBe(canonicalJson(value).length);
    }
  });
});

describe('Rng', () => {
  it('repeats its sequence for the same seed and differs for another', () => {
    const a = new Rng(42);
    const b = new Rng(42);
    const c = new Rng(43);
    const seqA = Array.from({ length: 20 }, () => a.next());
    expect(Array.from({ length: 20 }, () => b.next())).toEqual(seqA);
    expect(Array.from({ length: 20 }, () => c.next())).not.toEqual(seqA);
  });

  it('draws within bounds and covers them', () => {
    const rng = new Rng(7);
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const value = rng.int(3, 9);
      expect(value).toBeGreaterThanOrEqual(3);
      expect(value).toBeLessThanOrEqual(9);
      seen.add(value);
      const f = rng.next();
      expect(f).toBeGreaterThanOrEqual(0);
      expect(f).toBeLessThan(1);
    }
    expect([...seen].sort()).toEqual([3, 4, 5, 6, 7, 8, 9]);
  });

  it('uses the high bits of a 53-bit seed', () => {
    expect(new Rng(2 ** 40).next()).not.toBe(new Rng(0).next());
  });

  it('makes 24-hex-digit ids', () => {
    const rng = new Rng(1);
    for (let i = 0; i < 50; i++) expect(rng.hex24()).toMatch(/^[0-9a-f]{24}$/);
  });
});
