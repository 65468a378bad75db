import { describe, expect, it } from 'vitest';
import { completePrompt, countTokens } from '../../src/server/domain/engine/text/index.ts';

describe('completePrompt', () => {
  it('carries an unfinished sentence on, after a space', () => {
    const answer = completePrompt({ model: 'gpt-4o-mini', prompt: 'The history of Rome' });
    expect(answer.text).toMatch(/^ [a-z]/);
    expect(answer.text).toMatch(/Rome/);
    expect(answer.finishReason).toBe('stop');
  });

  it('answers a prompt that asks for something on a new paragraph', () => {
    const answer = completePrompt({ model: 'gpt-4o-mini', prompt: 'Write a haiku about the sea.' });
    expect(answer.text).toMatch(/^\n\n.*haiku about the sea/);
    const spaced = completePrompt({ model: 'gpt-4o-mini', prompt: 'Write a haiku about the sea.\n' });
    expect(spaced.text).not.toMatch(/^\s/);
  });

  it('counts prompt and completion tokens', () => {
    for (const prompt of ['Once upon a time', 'Explain photosynthesis.', 'Ünïcödé prompt 🎉 with emoji']) {
      const answer = completePrompt({ model: 'gpt-4o-mini', prompt });
      expect(answer.promptTokens).toBe(countTokens(prompt));
      expect(answer.completionTokens).toBe(countTokens(answer.text));
      expect(answer.completionTokens).toBeGreaterThanOrEqual(15);
      expect(answer.completionTokens).toBeLessThanOrEqual(135);
    }
  });

  it('honours max_tokens exactly', () => {
    const full = completePrompt({ model: 'gpt-4o-mini', prompt: 'Once upon a time' });
    for (const maxTokens of [1, 3, 17]) {
      const cut = completePrompt({ model: 'gpt-4o-mini', prompt: 'Once upon a time', maxTokens });
      expect(cut.completionTokens).toBe(maxTokens);
      expect(cut.finishReason).toBe('length');
      expect(full.text.startsWith(cut.text)).toBe(true);
    }
    expect(completePrompt({ model: 'gpt-4o-mini', prompt: 'Once upon a time', maxTokens: 1000 })).toEqual(full);
  });
});
