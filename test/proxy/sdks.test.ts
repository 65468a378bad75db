/**
 * The official SDKs through the validating proxy to the reference server: every exchange conforms to every
 * contract that has its operation (the gateway's, and OpenAI's or Anthropic's), and the answers are those the
 * server gives directly.
 */
import { describe, expect, it } from 'vitest';
import { anthropicFor } from '../anthropic-sdk/sdk.ts';
import { openaiFor, weatherTool } from '../openai-sdk/sdk.ts';
import { useProxied, violationLines } from './proxied.ts';

const proxied = useProxied({ contracts: ['gateway', 'openai', 'anthropic'] });

describe('the official SDKs through the proxy', () => {
  it('openai: chat, a chat stream with usage, tools, Responses plain, streamed, retrieved and deleted — no violation, the same answers', async () => {
    const through = openaiFor(proxied.baseUrl, 'sk-demo-pro').openai;
    const direct = openaiFor(proxied.direct, 'sk-demo-pro').openai;
    const question = { model: 'gpt-4o-mini', temperature: 0, messages: [{ role: 'user' as const, content: 'What is the capital of France?' }] };
    const [a, b] = [await through.chat.completions.create(question), await direct.chat.completions.create(question)];
    expect(a.choices[0]!.message.content).toBe(b.choices[0]!.message.content);
    let streamed = '';
    for await (const chunk of await through.chat.completions.create({ ...question, stream: true, stream_options: { include_usage: true } })) streamed += chunk.choices[0]?.delta.content ?? '';
    expect(streamed).toBe(b.choices[0]!.message.content);
    const call = await through.chat.completions.create({ ...question, tools: [weatherTool], tool_choice: 'required', messages: [{ role: 'user', content: 'Weather in Lisbon?' }] });
    expect(call.choices[0]!.message.tool_calls?.[0]).toBeDefined();
    await through.chat.completions.stream({ ...question, tools: [weatherTool], messages: [{ role: 'user', content: 'Weather in Lisbon?' }] }).finalChatCompletion();
    const response = await through.responses.create({ model: 'gpt-4o-mini', temperature: 0, input: 'What is the capital of France?' });
    expect(response.output_text).toBe((await direct.responses.create({ model: 'gpt-4o-mini', temperature: 0, input: 'What is the capital of France?', store: false })).output_text);
    expect((await through.responses.stream({ model: 'gpt-4o-mini', temperature: 0, input: 'What is the capital of France?' }).finalResponse()).output_text).toBe(response.output_text);
    expect((await through.responses.retrieve(response.id)).id).toBe(response.id);
    await through.responses.delete(response.id);
    await proxied.proxy.settled();
    expect(violationLines(proxied.judged)).toEqual([]);
    expect(proxied.proxy.ledger.summary()).toMatchObject({ exchanges: 8, violating: 0, unmatched: 0 });
  });

  it('anthropic: a message, a stream, a tool call streamed, a token count — no violation', async () => {
    proxied.judged.length = 0;
    const { anthropic } = anthropicFor(proxied.baseUrl, { apiKey: 'sk-demo-economy' });
    const request = { model: 'claude-haiku-4-5', max_tokens: 256, temperature: 0, messages: [{ role: 'user' as const, content: 'What is the capital of France?' }] };
    const message = await anthropic.messages.create(request);
    const stream = anthropic.messages.stream(request);
    expect((await stream.finalMessage()).content).toEqual(message.content);
    const tool = { name: 'get_weather', description: 'Weather in a city.', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] } };
    await anthropic.messages.stream({ ...request, tools: [tool], tool_choice: { type: 'any' }, messages: [{ role: 'user', content: 'Weather in Lisbon?' }] }).finalMessage();
    expect((await anthropic.messages.countTokens({ model: request.model, messages: request.messages })).input_tokens).toBe(message.usage.input_tokens);
    await proxied.proxy.settled();
    expect(violationLines(proxied.judged)).toEqual([]);
    expect(proxied.judged.flat().map((j) => `${j.contract}:${j.operationId}`)).toEqual(expect.arrayContaining(['gateway:createMessage', 'anthropic:createMessage', 'anthropic:countMessageTokens']));
  });
});
