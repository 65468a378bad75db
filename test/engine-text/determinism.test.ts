import { afterEach, describe, expect, it, vi } from 'vitest';
// The modules themselves, not the memoised exports: a cache would make these tests pass on its own.
import { answerChat } from '../../src/server/domain/engine/text/chat-answer.ts';
import { completePrompt } from '../../src/server/domain/engine/text/prompt.ts';
import { chat, QUESTIONS, user, WEATHER } from './requests.ts';

afterEach(() => vi.restoreAllMocks());

describe('determinism', () => {
  it('gives the same answer to the same request and seed', () => {
    for (const question of QUESTIONS) {
      for (const extra of [{}, { seed: 5 }, { seed: 5, temperature: 1.3 }, { temperature: 0 }]) {
        expect(answerChat(chat([user(question)], extra))).toEqual(answerChat(chat([user(question)], extra)));
      }
    }
  });

  it('treats a missing seed as seed 0', () => {
    const request = chat([user('What is the capital of France?')], { temperature: 0.8 });
    expect(answerChat(request)).toEqual(answerChat({ ...request, seed: 0 }));
    expect(answerChat(request)).toEqual(answerChat({ ...request, seed: null }));
    expect(completePrompt({ model: 'm', prompt: 'The sea' })).toEqual(completePrompt({ model: 'm', prompt: 'The sea', seed: 0 }));
  });

  it('ignores the seed at temperature 0', () => {
    for (const question of QUESTIONS) {
      const base = answerChat(chat([user(question)], { temperature: 0 }));
      for (const seed of [1, 2, 99, 123456789, 2 ** 52]) {
        expect(answerChat(chat([user(question)], { temperature: 0, seed }))).toEqual(base);
      }
    }
    const prompt = completePrompt({ model: 'm', prompt: 'Once upon a time', temperature: 0 });
    expect(completePrompt({ model: 'm', prompt: 'Once upon a time', temperature: 0, seed: 77 })).toEqual(prompt);
  });

  it('varies with the seed at a higher temperature', () => {
    for (const question of ['What is the capital of France?', 'How do I reset my password?', 'Why is the sky blue?']) {
      const answers = new Set<string | null>();
      for (let seed = 0; seed < 20; seed++) answers.add(answerChat(chat([user(question)], { temperature: 1, seed })).content);
      expect(answers.size).toBeGreaterThanOrEqual(15);
    }
    const prompts = new Set<string>();
    for (let seed = 0; seed < 20; seed++) prompts.add(completePrompt({ model: 'm', prompt: 'The history of Rome', seed }).text);
    expect(prompts.size).toBeGreaterThanOrEqual(15);
  });

  it('depends on the conversation, not on key order', () => {
    const a = answerChat(chat([{ role: 'user', content: 'Why is the sky blue?' }]));
    const b = answerChat(chat([{ content: 'Why is the sky blue?', role: 'user' }]));
    expect(b).toEqual(a);
    expect(answerChat(chat([user('Why is the sky blue?')], { model: 'other-model' })).content).not.toBe(a.content);
  });

  it('keeps tool call ids and arguments stable', () => {
    const request = chat([user('Weather in Paris?')], { tools: [WEATHER], seed: 3, temperature: 1 });
    const first = answerChat(request).toolCalls;
    expect(answerChat(request).toolCalls).toEqual(first);
    expect(answerChat({ ...request, seed: 4 }).toolCalls[0]?.id).not.toBe(first[0]?.id);
  });

  it('never touches Math.random', () => {
    vi.spyOn(Math, 'random').mockImplementation(() => {
      throw new Error('Math.random used');
    });
    for (const question of QUESTIONS) answerChat(chat([user(question)], { temperature: 1.5, seed: 9, tools: [WEATHER] }));
    completePrompt({ model: 'm', prompt: 'Once upon a time', temperature: 2, seed: 1 });
  });
});
