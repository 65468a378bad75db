import { describe, expect, it } from 'vitest';
import { answerChat, countTokens } from '../../src/server/domain/engine/text/index.ts';
import type { ChatRequest } from '../../src/server/domain/chat.ts';
import { assistantCalls, chat, PARALLEL_TOOL_RESULTS, QUESTIONS, system, toolResult, user, WEATHER } from './requests.ts';

const PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';

describe('text answers', () => {
  it('refer to the subject of the last user message', () => {
    const cases: Array<[string, RegExp]> = [
      ['What is the capital of France?', /capital of France/],
      ['How do I reset my password?', /reset your password/],
      ['Write a haiku about the sea.', /haiku about the sea/],
      ['List some tips for learning Spanish', /Spanish/],
      ['I just moved to Zürich and love the lake.', /Zürich/],
      ['Why is the sky blue?', /sky/],
    ];
    for (const [question, subject] of cases) {
      for (let seed = 0; seed < 5; seed++) {
        expect(answerChat(chat([user(question)], { seed })).content).toMatch(subject);
      }
    }
  });

  it('stay short when the message is one enormous word (the word is counted, not echoed)', () => {
    const answer = answerChat(chat([user('z'.repeat(400_000))]));
    expect(answer.promptTokens).toBeGreaterThan(10_000);
    expect(answer.completionTokens).toBeLessThan(200);
    expect(answer.content).not.toMatch(/z{41}/);
  });

  it('answer the last user message, not an earlier one', () => {
    const answer = answerChat(
      chat([system('You are helpful.'), user('What is the capital of France?'), { role: 'assistant', content: 'Paris.' }, user('Tell me about Norway')]),
    );
    expect(answer.content).toMatch(/Norway/);
    expect(answer.content).not.toMatch(/France/);
  });

  it('greet back briefly and thank back', () => {
    const hello = answerChat(chat([user('Hello!')]));
    expect(hello.content).toMatch(/^(Hello|Hi|Hey)/);
    expect(hello.completionTokens).toBeLessThanOrEqual(40);
    expect(answerChat(chat([user('Thanks a lot!')])).content).toMatch(/welcome|Happy to help|Anytime/);
  });

  it('vary in length between roughly 15 and 130 tokens', () => {
    const lengths: number[] = [];
    for (const question of QUESTIONS) {
      for (let seed = 0; seed < 8; seed++) lengths.push(answerChat(chat([user(question)], { seed })).completionTokens);
    }
    expect(Math.min(...lengths)).toBeGreaterThanOrEqual(12);
    expect(Math.max(...lengths)).toBeLessThanOrEqual(135);
    expect(Math.max(...lengths) - Math.min(...lengths)).toBeGreaterThan(60);
    expect(new Set(lengths).size).toBeGreaterThan(30);
  });

  it('split into non-empty pieces that concatenate byte-exactly, and count real tokens', () => {
    for (const question of QUESTIONS) {
      for (let seed = 0; seed < 4; seed++) {
        const answer = answerChat(chat([user(question)], { seed }));
        expect(answer.finishReason).toBe('stop');
        expect(answer.toolCalls).toEqual([]);
        const content = answer.content as string;
        expect(answer.contentPieces.every((p) => p.length > 0)).toBe(true);
        expect(Buffer.from(answer.contentPieces.join(''))).toEqual(Buffer.from(content));
        expect(answer.completionTokens).toBe(countTokens(content));
        expect(answer.contentPieces.length).toBeLessThanOrEqual(answer.completionTokens);
        expect(content).not.toContain('\uFFFD');
        expect(content).not.toMatch(/\{(topic|key|key2|Topic|Key)\}|undefined|  /);
      }
    }
  });
});

describe('answers asked for whole', () => {
  it('are the answers asked for in pieces, their text in one piece', () => {
    for (const question of QUESTIONS) {
      for (const maxTokens of [undefined, 3, 1000]) {
        const request = chat([user(question)], { seed: 1, maxTokens });
        const pieces = answerChat(request, 'pieces');
        expect(answerChat(request, 'whole')).toEqual({ ...pieces, contentPieces: [pieces.content] });
      }
    }
    // Tool calls are made the same way in either form, argument pieces included.
    const calls = chat([user('What is the weather in Paris?')], { tools: [WEATHER], toolChoice: 'required' });
    expect(answerChat(calls, 'whole')).toEqual(answerChat(calls, 'pieces'));
  });
});

describe('max_tokens', () => {
  it('cuts the answer to exactly max_tokens tokens, as a prefix, with finish_reason length', () => {
    for (const question of QUESTIONS) {
      const full = answerChat(chat([user(question)], { seed: 2 }));
      for (const limit of [1, 2, 5, 10, full.completionTokens - 1]) {
        if (limit < 1) continue;
        const cut = answerChat(chat([user(question)], { seed: 2, maxTokens: limit }));
        expect(cut.finishReason).toBe('length');
        expect(cut.completionTokens).toBe(limit);
        expect(full.content?.startsWith(cut.content as string)).toBe(true);
        expect(cut.contentPieces.join('')).toBe(cut.content);
        expect(full.contentPieces.slice(0, cut.contentPieces.length)).toEqual(cut.contentPieces);
        expect(cut.promptTokens).toBe(full.promptTokens);
      }
    }
  });

  it('leaves an answer that fits untouched', () => {
    const full = answerChat(chat([user('Why is the sky blue?')]));
    for (const limit of [full.completionTokens, full.completionTokens + 1, 4096]) {
      expect(answerChat(chat([user('Why is the sky blue?')], { maxTokens: limit }))).toEqual(full);
    }
  });
});

describe('prompt tokens', () => {
  it('count each message as its text plus 3 tokens of markup and the role, plus 3 for the reply', () => {
    const one = answerChat(chat([user('Hello world')]));
    expect(one.promptTokens).toBe(3 + 1 + 2 + 3);
    const two = answerChat(chat([system('Be brief.'), user('Hello world')]));
    expect(two.promptTokens).toBe(one.promptTokens + 3 + countTokens('system') + countTokens('Be brief.'));
  });

  it('accept content parts and count 85 tokens per image', () => {
    const text = answerChat(chat([user([{ type: 'text', text: 'What is in this picture?' }])]));
    expect(text.promptTokens).toBe(answerChat(chat([user('What is in this picture?')])).promptTokens);
    const withImages = answerChat(
      chat([
        user([
          { type: 'text', text: 'What is in this picture?' },
          { type: 'image_url', image_url: { url: PIXEL } },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.png', detail: 'low' } },
        ]),
      ]),
    );
    expect(withImages.promptTokens).toBe(text.promptTokens + 2 * 85);
    expect(withImages.content).toMatch(/image|picture/);
  });

  it('count a name, tool calls and tool results, and tool definitions', () => {
    const plain = answerChat(chat([user('Hi')])).promptTokens;
    expect(answerChat(chat([{ role: 'user', content: 'Hi', name: 'ann' }])).promptTokens).toBe(plain + 1 + countTokens('ann'));
    const history = [
      user('Weather in Paris?'),
      assistantCalls([{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }]),
      toolResult('call_1', '{"temperature":21}'),
    ];
    const before = answerChat(chat(history.slice(0, 1))).promptTokens;
    const after = answerChat(chat(history)).promptTokens;
    const expected =
      3 + countTokens('assistant') + 3 + countTokens('get_weather') + countTokens('{"city":"Paris"}') + 3 + countTokens('tool') + countTokens('{"temperature":21}');
    expect(after - before).toBe(expected);
    expect(answerChat(chat([user('Hi')], { tools: [WEATHER], toolChoice: 'none' })).promptTokens).toBeGreaterThan(plain + 20);
  });

  it('handle an image-only message and an empty conversation', () => {
    const image = answerChat(chat([user([{ type: 'image_url', image_url: { url: PIXEL } }])]));
    expect(image.content).toMatch(/image|picture/);
    expect(image.promptTokens).toBe(3 + 1 + 85 + 3);
    expect(answerChat(chat([])).content?.length).toBeGreaterThan(10);
  });
});

describe('after tool results', () => {
  const history = [
    user('What is the weather in Paris?'),
    assistantCalls([{ id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' }]),
  ];

  it('answers in text that quotes the returned values', () => {
    const answer = answerChat(chat([...history, toolResult('call_a', '{"temperature":21,"condition":"sunny","wind_kmh":12}')], { tools: [WEATHER] }));
    expect(answer.finishReason).toBe('stop');
    expect(answer.toolCalls).toEqual([]);
    expect(answer.content).toMatch(/get_weather/);
    expect(answer.content).toMatch(/temperature is 21/);
    expect(answer.content).toMatch(/condition is sunny/);
    expect(answer.content).toMatch(/wind kmh is 12/);
  });

  it('quotes plain-text and array results, and every result of parallel calls', () => {
    const answer = answerChat(chat(PARALLEL_TOOL_RESULTS));
    expect(answer.content).toContain('get_forecast returned: "Light rain, 14°C in Paris"');
    expect(answer.content).toContain('temperature is 25');
    expect(answer.content).toMatch(/list_alerts returned 2 items \(flood, wind\)/);
    expect(answer.contentPieces.join('')).toBe(answer.content);
  });
});

describe('long conversations', () => {
  it('answers a megabyte of ordinary prose, counting every token of it', () => {
    const paragraph = 'The harbour was quiet that morning, and the keeper wrote down the tides as he did every day. ';
    const history = Array.from({ length: 200 }, (_, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: `${i}: ${paragraph.repeat(55)}` }));
    const size = history.reduce((n, m) => n + m.content.length, 0);
    expect(size).toBeGreaterThan(1_000_000);
    const messages = [...history, { role: 'user', content: 'What do the logs say about the tides?' }] as ChatRequest['messages'];
    const answer = answerChat({ model: 'gpt-4o-mini', messages });
    // Each message costs its text's tokens plus a fixed overhead (see prompt-tokens.ts): all of it was read.
    const text = messages.reduce((n, m) => n + countTokens(m.content as string), 0);
    expect(answer.promptTokens).toBeGreaterThan(text);
    expect(answer.content).toMatch(/tide/i);
  });
});
