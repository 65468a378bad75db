import { describe, expect, it } from 'vitest';
import { Generations } from '../../src/server/engine/text/generations.ts';

describe('Generations', () => {
  it('keeps at most two generations, and what is used again', () => {
    const cache = new Generations<string, number>(4);
    cache.set('hot', 0);
    for (let i = 0; i < 20; i++) {
      cache.set(`once ${i}`, i);
      expect(cache.get('hot')).toBe(0); // used all the time: never forgotten
      expect(cache.size).toBeLessThanOrEqual(8);
    }
    expect(cache.get('once 19')).toBe(19);
    expect(cache.get('once 0')).toBeUndefined(); // seen once, long ago: forgotten
  });

  it('moves an entry found in the old generation back to the young one', () => {
    const cache = new Generations<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2); // young is full: {a, b} becomes old
    expect(cache.get('a')).toBe(1); // back to young
    cache.set('c', 3); // young {a, c} full: becomes old, and {b} is dropped
    expect(cache.get('a')).toBe(1);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.size).toBe(2);
  });
});
