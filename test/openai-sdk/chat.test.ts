// chat.completions.create with the openai SDK, plain and streamed, against the reference server.
import { describe, expect, it } from 'vitest';
import { useServer } from '../helpers/server.ts';
import { openaiFor } from './sdk.ts';

const server = useServer();

const question = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Name three colours of the sea.' }], seed: 7 };

describe('openai SDK: chat.completions.create', () => {
  it('answers a conversation without stream', async () => {
    const { openai } = openaiFor(server.baseUrl);
    const completion = await openai.chat.completions.create(question);
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe('gpt-4o-mini');
    expect(completion.choices[0]?.message.role).toBe('assistant');
    expect(completion.choices[0]?.message.content).toMatch(/\w/);
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage?.total_tokens).toBe((completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0));
  });

  it('streams the same answer as chunks, with usage last when asked', async () => {
    const { openai } = openaiFor(server.baseUrl);
    const whole = await openai.chat.completions.create(question);
    const stream = await openai.chat.completions.create({ ...question, stream: true, stream_options: { include_usage: true } });
    let text = '';
    const finishes: string[] = [];
    let usage: unknown;
    let chunks = 0;
    for await (const chunk of stream) {
      chunks++;
      expect(chunk.object).toBe('chat.completion.chunk');
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.choices[0]?.finish_reason) finishes.push(chunk.choices[0].finish_reason);
      if (chunk.usage) {
        expect(chunk.choices).toEqual([]);
        usage = chunk.usage;
      }
    }
    expect(chunks).toBeGreaterThan(3);
    expect(text).toBe(whole.choices[0]?.message.content);
    expect(finishes).toEqual(['stop']);
    expect(usage).toEqual(whole.usage);
  });

  it('sends no usage chunk when include_usage is not asked', async () => {
    const { openai } = openaiFor(server.baseUrl);
    const stream = await openai.chat.completions.create({ ...question, stream: true });
    for await (const chunk of stream) expect(chunk.usage ?? null).toBeNull();
  });
});
