import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { goldenAnswers, type GoldenAnswers } from './golden-answers.ts';
import { GOLDEN_CHAT_REQUESTS, GOLDEN_PROMPT_REQUESTS } from './golden-requests.ts';

const stored = JSON.parse(readFileSync(new URL('./golden-answers.json', import.meta.url), 'utf8')) as GoldenAnswers;

describe('golden answers', () => {
  it('covers about two hundred varied requests', () => {
    expect(stored.chat).toHaveLength(GOLDEN_CHAT_REQUESTS.length);
    expect(stored.prompt).toHaveLength(GOLDEN_PROMPT_REQUESTS.length);
    expect(GOLDEN_CHAT_REQUESTS.length + GOLDEN_PROMPT_REQUESTS.length).toBeGreaterThanOrEqual(200);
  });

  it('are still exactly the answers the engine gives (content, pieces, tool calls, counts, finish reasons)', () => {
    // Round-trip through JSON, as the fixture was, so only the answers themselves are compared.
    const now = JSON.parse(JSON.stringify(goldenAnswers())) as GoldenAnswers;
    for (let i = 0; i < stored.chat.length; i++) expect(now.chat[i], `chat request ${i}`).toEqual(stored.chat[i]);
    for (let i = 0; i < stored.prompt.length; i++) expect(now.prompt[i], `prompt request ${i}`).toEqual(stored.prompt[i]);
  });
});
