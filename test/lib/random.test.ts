import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/lib/canonical-json.ts';
import { hashCanonical, hashString, Rng } from '../../src/lib/random.ts';

/** A JSON-like value of every kind canonicalJson meets, escapes and odd numbers included. */
function randomValue(rng: Rng, depth: number): unknown {
  const strings = ['', 'plain', 'é ü 日本', '🎉', 'a"quote', 'back\\slash', 'line\nbreak', '\u0001', 'lone \ud800 surrogate', 'end \udfff', 'b', 'a'];
  switch (rng.int(0, depth > 3 ? 3 : 6)) {
    case 0:
      return rng.pick(strings) + (rng.chance(0.5) ? '' : rng.pick(strings));
    case 1:
      return rng.pick([0, -0, 1, -1.5, 1e21, 1e-7, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY, 123456789.123]);
    case 2:
      return rng.pick([true, false, null, undefined]);
    case 3:
      return rng.int(-1000, 1000);
    case 4:
      return Array.from({ length: rng.int(0, 4) }, () => randomValue(rng, depth + 1));
    default: {
      const record: Record<string, unknown> = {};
      const many = rng.chance(0.1) ? 20 : rng.int(0, 5); // more than 16 keys are sorted another way
      for (let i = 0; i < many; i++) record[rng.pick(strings) + rng.int(0, 30)] = randomValue(rng, depth + 1);
      return record;
    }
  }
}

/**
 * The value with every object's keys in sorted order, for JSON.stringify to write canonically, each key given
 * a leading `k` (the same order among them): JavaScript puts keys such as "11" first whatever the order.
 */
function sortedDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedDeep);
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(Object.keys(record).sort().map((key) => [`k${key}`, sortedDeep(record[key])]));
}

/** The value with a leading `k` on every key, in the order it had. */
function prefixed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(prefixed);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, member]) => [`k${key}`, prefixed(member)]));
}

describe('canonicalJson', () => {
  it('is JSON.stringify of the value with its keys sorted (null for what has no JSON)', () => {
    const rng = new Rng(2);
    for (let n = 0; n < 2000; n++) {
      const value = randomValue(rng, 0);
      expect(canonicalJson(prefixed(value))).toBe(JSON.stringify(sortedDeep(value)) ?? 'null');
    }
    expect(canonicalJson({ b: 1, a: [true, null, undefined, Number.NaN], c: undefined })).toBe('{"a":[true,null,null,null],"b":1}');
  });
});

describe('hashCanonical', () => {
  it('gives, for each salt, the hash of the canonical JSON', () => {
    const rng = new Rng(1);
    for (let n = 0; n < 2000; n++) {
      const value = randomValue(rng, 0);
      const text = canonicalJson(value);
      const [a, b] = hashCanonical(value, 1, 2);
      expect(a, text).toBe(hashString(text, 1));
      expect(b, text).toBe(hashString(text, 2));
    }
  });

  it('does not depend on the order of keys', () => {
    expect(hashCanonical({ b: 1, a: [true, null] }, 3, 4)).toEqual(hashCanonical({ a: [true, null], b: 1 }, 3, 4));
    expect(hashCanonical({ a: 1 }, 3, 4)).not.toEqual(hashCanonical({ a: 2 }, 3, 4));
  });
});
