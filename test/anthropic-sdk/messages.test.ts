// messages.create, messages.stream, raw streams and countTokens with Anthropic's SDK against the reference server.
import type Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { useServer } from '../helpers/server.ts';
import { anthropicFor } from './sdk.ts';

const server = useServer();

const question = {
  model: 'claude-haiku-4-5',
  max_tokens: 1024,
  system: [{ type: 'text' as const, text: 'You are a concise assistant.', cache_control: { type: 'ephemeral' as const } }],
  messages: [{ role: 'user' as const, content: 'Name three colours of the sea.' }],
};

describe('Anthropic SDK: messages', () => {
  it('answers with messages.create, at the root base URL, with the key as apiKey, authToken or x-api-key', async () => {
    const withKey = anthropicFor(server.baseUrl, { apiKey: 'sk-demo-economy' });
    const message = await withKey.anthropic.messages.create(question);
    expect(withKey.sent[0]!.headers.authorization).toBe('Bearer sk-demo-economy');
    expect(message).toMatchObject({ type: 'message', role: 'assistant', model: 'claude-haiku-4-5', stop_reason: 'end_turn', stop_sequence: null });
    expect(message.id).toMatch(/^msg_[0-9a-f]{24}$/);
    expect(message.content[0]).toMatchObject({ type: 'text' });
    expect(message.usage.input_tokens).toBeGreaterThan(0);
    expect(message.usage.output_tokens).toBeGreaterThan(0);
    expect(withKey.sent.map((r) => r.path)).toEqual(['/v1/messages']);
    expect(withKey.sent[0]!.headers['anthropic-version']).toBeDefined();

    const withToken = anthropicFor(server.baseUrl, { authToken: 'sk-demo-economy' });
    const again = await withToken.anthropic.messages.create(question);
    expect(withToken.sent[0]!.headers.authorization).toBe('Bearer sk-demo-economy');
    expect(withToken.sent[0]!.headers['x-api-key']).toBeUndefined();
    expect(again.content).toEqual(message.content);

    const withHeader = anthropicFor(server.baseUrl, { xApiKey: 'sk-demo-economy' });
    const third = await withHeader.anthropic.messages.create(question);
    expect(withHeader.sent[0]!.headers['x-api-key']).toBe('sk-demo-economy');
    expect(withHeader.sent[0]!.headers.authorization).toBeUndefined();
    expect(third.content).toEqual(message.content);
  });

  it('streams with messages.stream: the text events add up to the final message, which equals the non-streamed one', async () => {
    const { anthropic } = anthropicFor(server.baseUrl);
    const whole = await anthropic.messages.create(question);
    const stream = anthropic.messages.stream(question);
    let text = '';
    stream.on('text', (delta) => (text += delta));
    const final = await stream.finalMessage();
    expect(text).toBe((whole.content[0] as { text: string }).text);
    expect(final.content).toEqual(whole.content);
    expect(final.stop_reason).toBe(whole.stop_reason);
    expect(final.usage.output_tokens).toBe(whole.usage.output_tokens);
    expect(final.usage.input_tokens).toBe(whole.usage.input_tokens);
  });

  it('sends the raw events of stream: true in their grammar', async () => {
    const { anthropic } = anthropicFor(server.baseUrl);
    const stream = await anthropic.messages.create({ ...question, max_tokens: 5, stream: true });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types[0]).toBe('message_start');
    expect(types.slice(1, 2)).toEqual(['content_block_start']); // the SDK passes ping by
    expect(types.filter((t) => t === 'content_block_delta')).toHaveLength(5);
    expect(types.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop']);
  });

  it('honours max_tokens and stop_sequences', async () => {
    const { anthropic } = anthropicFor(server.baseUrl);
    const cut = await anthropic.messages.create({ ...question, max_tokens: 3 });
    expect(cut).toMatchObject({ stop_reason: 'max_tokens', stop_sequence: null, usage: { output_tokens: 3 } });

    const whole = await anthropic.messages.create(question);
    const text = (whole.content[0] as { text: string }).text;
    const word = text.split(' ')[3]!;
    const stopped = await anthropic.messages.create({ ...question, stop_sequences: [word, 'never-in-the-answer'] });
    expect(stopped).toMatchObject({ stop_reason: 'stop_sequence', stop_sequence: word });
    expect((stopped.content[0] as { text: string }).text).toBe(text.slice(0, text.indexOf(word)));
    expect(stopped.usage.output_tokens).toBeLessThan(whole.usage.output_tokens);
  });

  it('counts with countTokens exactly the input_tokens the same request is billed', async () => {
    const { anthropic } = anthropicFor(server.baseUrl);
    const image = { type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/png' as const, data: 'iVBORw0KGgo=' } };
    const conversation = { ...question, messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'What is in this picture?' }, image] }] };
    const { max_tokens: _, ...counted } = conversation;
    const count = await anthropic.messages.countTokens(counted);
    const message = await anthropic.messages.create(conversation);
    expect(count.input_tokens).toBe(message.usage.input_tokens);
    const withoutImage = await anthropic.messages.countTokens({ ...counted, messages: [{ role: 'user', content: 'What is in this picture?' }] });
    expect(count.input_tokens - withoutImage.input_tokens).toBe(85); // an image counts as on the chat endpoint
  });

  it('reads a system turn in messages as more of the system prompt (as Claude Code sends one)', async () => {
    const { anthropic } = anthropicFor(server.baseUrl);
    const turns = [
      { role: 'user', content: 'Name three colours of the sea.' },
      { role: 'system', content: [{ type: 'text', text: 'Answer briefly.' }] },
    ] as unknown as Anthropic.MessageParam[]; // the 1.x SDK types a system turn apart
    const withTurn = await anthropic.messages.countTokens({ model: question.model, messages: turns });
    const alone = await anthropic.messages.countTokens({ model: question.model, messages: turns.slice(0, 1) });
    const asSystem = await anthropic.messages.countTokens({ model: question.model, system: 'Answer briefly.', messages: turns.slice(0, 1) });
    expect(withTurn.input_tokens).toBeGreaterThan(alone.input_tokens);
    expect(withTurn.input_tokens).toBe(asSystem.input_tokens);
    const message = await anthropic.messages.create({ ...question, messages: turns });
    expect(message.stop_reason).toBe('end_turn');
  });

  it('gives the same answer to the same request (deterministic)', async () => {
    const { anthropic } = anthropicFor(server.baseUrl);
    const [a, b] = await Promise.all([anthropic.messages.create(question), anthropic.messages.create(question)]);
    expect(a.content).toEqual(b.content);
    expect(a.id).not.toBe(b.id);
  });

  it('works through the beta client (?beta=true, anthropic-beta) as Claude Code calls it', async () => {
    const { anthropic, sent } = anthropicFor(server.baseUrl);
    // Claude Code adds ?beta=true to the path itself; the SDK's beta client sends the betas as a header.
    const message = await anthropic.beta.messages.create(
      { ...question, betas: ['interleaved-thinking-2025-05-14', 'context-management-2025-06-27'] },
      { query: { beta: 'true' } },
    );
    expect(message.content[0]).toMatchObject({ type: 'text' });
    expect(sent[0]).toMatchObject({ path: '/v1/messages', search: '?beta=true' });
    expect(sent[0]!.headers['anthropic-beta']).toContain('interleaved-thinking');
  });
});
