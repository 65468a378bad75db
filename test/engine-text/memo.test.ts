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

describe('AnswerMemo', () => {
  it('computes a request once and returns the same frozen answer for equal content, in any key order', () => {
    const { answer, calls } = counted();
    const first = answer({ n: 1, pad: 'a' });
    expect(answer({ pad: 'a', n: 1 })).toBe(first);
    expect(calls()).toBe(1);
    expect(Object.isFrozen(first) && Object.isFrozen(first.list) && Object.isFrozen(first.list[0])).toBe(true);
    expect(() => {
      (first as { value: number }).value = 3;
    }).toThrow(TypeError);
  });

  it('keeps what is used again and forgets what was seen once, within two generations', () => {
    const { answer, calls } = counted(3);
    answer({ n: 1 });
    answer({ n: 2 });
    answer({ n: 3 }); // the generation {1, 2, 3} is full and becomes the old one
    answer({ n: 4 });
    answer({ n: 1 }); // found in the old generation: moves to the young one, {4, 1}
    expect(calls()).toBe(4);
    answer({ n: 5 }); // the young generation {4, 1, 5} is full: the old one, {2, 3}, is dropped
    answer({ n: 1 });
    expect(calls()).toBe(5);
    answer({ n: 2 });
    expect(calls()).toBe(6);
  });

  it('gives each request its own answer when their hashes collide', () => {
    const { answer, calls } = counted();
    const collision = { hash: 42, length: 10 };
    expect(answer({ n: 1 }, { material: { n: 1 }, digest: collision, maxTokens: null }).value).toBe(2);
    expect(answer({ n: 2 }, { material: { n: 2 }, digest: collision, maxTokens: null }).value).toBe(4);
    expect(answer({ n: 1 }, { material: { n: 1 }, digest: collision, maxTokens: null }).value).toBe(2);
    expect(calls()).toBe(3);
  });

  it('keeps answers cut to another max_tokens apart', () => {
    const memo = new AnswerMemo<string>();
    const material = { prompt: 'same' };
    expect(memo.answer(key(material, 5), () => 'five')).toBe('five');
    expect(memo.answer(key(material, null), () => 'all')).toBe('all');
    expect(memo.answer(key(material, 5), () => 'recomputed')).toBe('five');
  });

  it('does not remember very large requests', () => {
    const { answer, calls } = counted();
    const big = { n: 1, pad: 'x'.repeat(MAX_KEY_CHARS) };
    expect(answer(big)).toEqual(answer(big));
    expect(calls()).toBe(2);
  });

  it('backs the exported engine functions', () => {
    const request = chat([user('What is a memo?')], { seed: 11 });
    expect(answerChat({ ...request })).toBe(answerChat(request));
    expect(answerChat({ ...request, messages: [{ content: 'What is a memo?', role: 'user' }] })).toBe(answerChat(request));
    expect(answerChat({ ...request, maxTokens: 3 })).not.toBe(answerChat(request));
    expect(Object.isFrozen(answerChat(request).contentPieces)).toBe(true);
    const prompt = { model: 'gpt-4o-mini', prompt: 'Once upon a time', seed: 3 };
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
