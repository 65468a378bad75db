import { describe, expect, it } from 'vitest';
import { answerChat } from '../../src/server/engine/text/index.ts';
import { MAX_KEY_CHARS, memoize } from '../../src/server/engine/text/memo.ts';
import { chat, user } from './requests.ts';

function counted() {
  let calls = 0;
  const fn = memoize((input: { n: number; pad?: string }) => {
    calls++;
    return { value: input.n * 2, list: [{ n: input.n }] };
  }, 3);
  return { fn, calls: () => calls };
}

describe('memoize', () => {
  it('computes a request once and returns the same frozen answer for equal content', () => {
    const { fn, calls } = counted();
    const first = fn({ n: 1 });
    expect(fn({ n: 1 })).toBe(first);
    expect(calls()).toBe(1);
    expect(Object.isFrozen(first) && Object.isFrozen(first.list) && Object.isFrozen(first.list[0])).toBe(true);
    expect(() => {
      (first as { value: number }).value = 3;
    }).toThrow(TypeError);
  });

  it('forgets the least recently used entry beyond its size', () => {
    const { fn, calls } = counted();
    fn({ n: 1 });
    fn({ n: 2 });
    fn({ n: 3 });
    fn({ n: 1 }); // 1 is now the most recent; 2 the oldest
    fn({ n: 4 }); // evicts 2
    expect(calls()).toBe(4);
    fn({ n: 1 });
    fn({ n: 3 });
    expect(calls()).toBe(4);
    fn({ n: 2 });
    expect(calls()).toBe(5);
  });

  it('does not cache very large requests', () => {
    const { fn, calls } = counted();
    const big = { n: 1, pad: 'x'.repeat(MAX_KEY_CHARS) };
    expect(fn(big)).toEqual(fn(big));
    expect(calls()).toBe(2);
  });

  it('backs the exported engine functions', () => {
    const request = chat([user('What is a memo?')], { seed: 11 });
    expect(answerChat({ ...request })).toBe(answerChat(request));
    expect(Object.isFrozen(answerChat(request).contentPieces)).toBe(true);
  });
});
