import { describe, expect, it } from 'vitest';
import { answerChat, completePrompt } from '../../src/server/engine/text/index.ts';
import { AnswerMemo, MAX_KEY_CHARS, sameJson, type MemoKey } from '../../src/server/engine/text/memo.ts';
import { canonicalDigest } from '../../src/server/engine/text/random.ts';
import { chat, user } from './requests.ts';

function key(material: unknown, maxTokens: number | null = null): MemoKey {
  return { material, digest: canonicalDigest(material), maxTokens };
}

function counted(perGeneration = 2) {
  let calls = 0;
  const memo = new AnswerMemo<{ value: number; list: Array<{ n: number }> }>(perGeneration);
  const answer = (material: { n: number; pad?: string }, k = key(material)) =>
    memo.answer(k, () => {
      calls++;
      return { value: material.n * 2, list: [{ n: material.n }] };
    });
  return { answer, calls: () => calls };
}

/** Sends every request once first, so that the memo has seen it and remembers its next answer. */
function seenOnce<T extends unknown[]>(send: (...args: T) => unknown, ...args: T): void {
  send(...args);
}

describe('AnswerMemo', () => {
  it('remembers a request seen a second time, and returns the same frozen answer for equal content, in any key order', () => {
    const { answer, calls } = counted();
    const unshared = answer({ n: 1, pad: 'a' });
    expect(Object.isFrozen(unshared)).toBe(false); // seen once: computed, not remembered
    const first = answer({ pad: 'a', n: 1 });
    expect(first).not.toBe(unshared);
    expect(first).toEqual(unshared);
    expect(answer({ n: 1, pad: 'a' })).toBe(first);
    expect(calls()).toBe(2);
    expect(Object.isFrozen(first) && Object.isFrozen(first.list) && Object.isFrozen(first.list[0])).toBe(true);
    expect(() => {
      (first as { value: number }).value = 3;
    }).toThrow(TypeError);
  });

  it('computes every request seen only once, and remembers none of them', () => {
    const { answer, calls } = counted(2);
    const answers = Array.from({ length: 10 }, (_, n) => answer({ n }));
    expect(calls()).toBe(10);
    expect(answers.some((a) => Object.isFrozen(a))).toBe(false);
  });

  it('keeps what is used again and forgets what was seen once, within two generations', () => {
    const { answer, calls } = counted(3);
    for (const n of [1, 2, 3, 4, 5]) seenOnce(answer, { n });
    expect(calls()).toBe(5);
    answer({ n: 1 });
    answer({ n: 2 });
    answer({ n: 3 }); // the generation {1, 2, 3} is full and becomes the old one
    answer({ n: 4 });
    answer({ n: 1 }); // found in the old generation: moves to the young one, {4, 1}
    expect(calls()).toBe(9);
    answer({ n: 5 }); // the young generation {4, 1, 5} is full: the old one, {2, 3}, is dropped
    answer({ n: 1 });
    expect(calls()).toBe(10);
    answer({ n: 2 });
    expect(calls()).toBe(11);
  });

  it('gives each request its own answer when their hashes collide', () => {
    const { answer, calls } = counted();
    const collision = { hash: 42, length: 10 };
    const send = (n: number) => answer({ n }, { material: { n }, digest: collision, maxTokens: null }).value;
    seenOnce(send, 1);
    expect(send(1)).toBe(2); // remembered
    expect(send(2)).toBe(4); // same slot, another request: computed (and remembered in the slot instead)
    expect(send(1)).toBe(2); // computed again, not the other request's answer
    expect(calls()).toBe(4);
  });

  it('keeps answers cut to another max_tokens apart', () => {
    const memo = new AnswerMemo<string>();
    const material = { prompt: 'same' };
    const ask = (maxTokens: number | null, value: string) => memo.answer(key(material, maxTokens), () => value);
    seenOnce(ask, 5, 'five');
    seenOnce(ask, null, 'all');
    expect(ask(5, 'five')).toBe('five');
    expect(ask(null, 'all')).toBe('all');
    expect(ask(5, 'recomputed')).toBe('five');
  });

  it('does not remember very large requests', () => {
    const { answer, calls } = counted();
    const big = { n: 1, pad: 'x'.repeat(MAX_KEY_CHARS) };
    expect(answer(big)).toEqual(answer(big));
    expect(answer(big)).toEqual(answer(big));
    expect(calls()).toBe(4);
  });

  it('backs the exported engine functions', () => {
    const request = chat([user('What is a memo?')], { seed: 11 });
    seenOnce(answerChat, request);
    seenOnce(answerChat, { ...request, maxTokens: 3 });
    expect(answerChat({ ...request })).toBe(answerChat(request));
    expect(answerChat({ ...request, messages: [{ content: 'What is a memo?', role: 'user' }] })).toBe(answerChat(request));
    expect(answerChat({ ...request, maxTokens: 3 })).not.toBe(answerChat(request));
    expect(Object.isFrozen(answerChat(request).contentPieces)).toBe(true);
    const prompt = { model: 'gpt-4o-mini', prompt: 'Once upon a time', seed: 3 };
    seenOnce(completePrompt, prompt);
    expect(completePrompt({ ...prompt })).toBe(completePrompt(prompt));
  });
});

describe('sameJson', () => {
  it('compares JSON values, undefined members being absent', () => {
    expect(sameJson({ a: [1, { b: 'x' }], c: undefined }, { a: [1, { b: 'x' }] })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameJson({ a: 1, b: undefined }, { a: 1, c: undefined })).toBe(true);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson([], {})).toBe(false);
    expect(sameJson({ a: null }, { a: undefined })).toBe(false);
    expect(sameJson('1', 1)).toBe(false);
  });
});
