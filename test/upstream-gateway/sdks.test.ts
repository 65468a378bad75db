/**
 * The official SDKs through a gateway in upstream mode (decision D31), against an upstream of each text
 * protocol: `openai` chat completions with a tool round trip, not streamed and streamed; the Responses API
 * continuing a conversation by `previous_response_id`, which the gateway stores (the upstream is sent the
 * whole conversation and keeps nothing); `@anthropic-ai/sdk` messages streamed with a `tool_use` round trip.
 * A recording proxy shows what the upstream received and answered: the tool calls' ids the clients see are
 * the upstream's (an Anthropic upstream's `toolu_…` ids as they are), and come back to it as they left.
 */
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicFor, weatherTool as anthropicWeather } from '../anthropic-sdk/sdk.ts';
import { openaiFor, weatherTool as chatWeather } from '../openai-sdk/sdk.ts';
import type { RecordedRequest } from '../helpers/recording-proxy.ts';
import { startUpstreamPair, type TextProtocol, type UpstreamPair } from '../helpers/upstream-gateway.ts';

const PROTOCOLS: TextProtocol[] = ['openai-chat', 'openai-responses', 'anthropic-messages'];

/** Where each protocol's answers are asked for at the upstream (a reference server). */
const UPSTREAM_PATH: Record<TextProtocol, string> = {
  'openai-chat': 'POST /v1/chat/completions',
  'openai-responses': 'POST /v1/responses',
  'anthropic-messages': 'POST /v1/messages',
};

const responsesWeather = {
  type: 'function' as const,
  name: 'get_weather',
  description: 'Current weather in a city.',
  strict: true,
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
};

type Json = Record<string, any>;

/** The JSON events of a recorded stream, or the JSON answer as the only one. */
function answerOf(record: RecordedRequest): Json[] {
  const text = record.answer ?? '';
  if (record.body.stream !== true) return [JSON.parse(text) as Json];
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice(6)) as Json);
}

/** The ids of the tool calls the upstream answered with, in its protocol's terms, streamed or not. */
function callIdsAnswered(protocol: TextProtocol, record: RecordedRequest): string[] {
  return answerOf(record).flatMap((data): string[] => {
    switch (protocol) {
      case 'openai-chat': {
        const choice = data.choices?.[0];
        return ((choice?.message ?? choice?.delta)?.tool_calls ?? []).flatMap((c: Json) => (c.id ? [c.id] : []));
      }
      case 'openai-responses':
        if (data.object === 'response') return (data.output as Json[]).filter((i) => i.type === 'function_call').map((i) => i.call_id);
        return data.type === 'response.output_item.added' && data.item.type === 'function_call' ? [data.item.call_id] : [];
      case 'anthropic-messages':
        if (data.type === 'message') return (data.content as Json[]).filter((b) => b.type === 'tool_use').map((b) => b.id);
        return data.type === 'content_block_start' && data.content_block.type === 'tool_use' ? [data.content_block.id] : [];
    }
  });
}

/** The calls and tool results a request sent to the upstream holds, by id, in its protocol's terms. */
function conversationSent(protocol: TextProtocol, body: Json): { userTexts: string[]; calls: string[]; results: Array<{ id: string; output: string }> } {
  switch (protocol) {
    case 'openai-chat': {
      const messages = body.messages as Json[];
      return {
        userTexts: messages.filter((m) => m.role === 'user').map((m) => m.content),
        calls: messages.flatMap((m) => (m.tool_calls ?? []).map((c: Json) => c.id)),
        results: messages.filter((m) => m.role === 'tool').map((m) => ({ id: m.tool_call_id, output: m.content })),
      };
    }
    case 'openai-responses': {
      const items = body.input as Json[];
      return {
        userTexts: items.filter((i) => i.role === 'user').map((i) => i.content),
        calls: items.filter((i) => i.type === 'function_call').map((i) => i.call_id),
        results: items.filter((i) => i.type === 'function_call_output').map((i) => ({ id: i.call_id, output: i.output })),
      };
    }
    case 'anthropic-messages': {
      const blocks = (body.messages as Json[]).flatMap((m) => (m.content as Json[]).map((b): Json => ({ ...b, role: m.role })));
      return {
        userTexts: blocks.filter((b) => b.role === 'user' && b.type === 'text').map((b) => b.text),
        calls: blocks.filter((b) => b.type === 'tool_use').map((b) => b.id),
        results: blocks.filter((b) => b.type === 'tool_result').map((b) => ({ id: b.tool_use_id, output: b.content })),
      };
    }
  }
}

describe.each(PROTOCOLS)('the SDKs through a gateway whose chat models are on an %s upstream', (protocol) => {
  let started: UpstreamPair | undefined;
  beforeAll(async () => {
    started = await startUpstreamPair(protocol, { recordUpstream: true });
  });
  afterAll(async () => {
    await started?.close();
  });
  /** The pair, with what its upstream received so far forgotten. */
  const freshPair = (): UpstreamPair => {
    if (!started) throw new Error('The pair starts in beforeAll.');
    started.upstreamSeen.length = 0;
    return started;
  };
  /** The upstream's two requests of a round trip, both in its protocol. */
  const twoRequests = (pair: UpstreamPair): [RecordedRequest, RecordedRequest] => {
    expect(pair.upstreamSeen.map((r) => r.request)).toEqual([UPSTREAM_PATH[protocol], UPSTREAM_PATH[protocol]]);
    return pair.upstreamSeen as [RecordedRequest, RecordedRequest];
  };

  const ask: OpenAI.ChatCompletionMessageParam = { role: 'user', content: 'What is the weather in Paris?' };
  const result = JSON.stringify({ temperature: 21, condition: 'sunny' });

  it('openai chat.completions.create: a tool call with the upstream id, its result sent back under it', async () => {
    const pair = freshPair();
    const { openai } = openaiFor(pair.gateway.baseUrl);
    const first = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [ask], tools: [chatWeather] });
    const choice = first.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    const call = choice.message.tool_calls?.[0];
    if (call?.type !== 'function') throw new Error(`expected a function call, got ${JSON.stringify(choice.message)}`);
    expect(call.function.name).toBe('get_weather');
    expect(JSON.parse(call.function.arguments)).toMatchObject({ city: expect.any(String) });

    const second = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [ask, choice.message, { role: 'tool', tool_call_id: call.id, content: result }],
      tools: [chatWeather],
    });
    expect(second.choices[0]?.finish_reason).toBe('stop');
    expect(second.choices[0]?.message.content).toMatch(/21/);

    const [asked, answered] = twoRequests(pair);
    expect(asked.body.stream).toBeUndefined();
    expect(callIdsAnswered(protocol, asked)).toEqual([call.id]);
    const sent = conversationSent(protocol, answered.body);
    expect(sent.userTexts).toContainEqual(expect.stringMatching(/weather in Paris/));
    expect(sent.calls).toEqual([call.id]);
    expect(sent.results).toEqual([{ id: call.id, output: result }]);
  }, 60_000);

  it('openai chat.completions.stream: the call streamed in pieces as the upstream streams it, the round trip streamed', async () => {
    const pair = freshPair();
    const { openai } = openaiFor(pair.gateway.baseUrl);
    const stream = openai.chat.completions.stream({ model: 'gpt-4o-mini', messages: [ask], tools: [chatWeather] });
    let argumentPieces = 0;
    stream.on('tool_calls.function.arguments.delta', () => argumentPieces++);
    const first = await stream.finalChatCompletion();
    expect(first.choices[0]?.finish_reason).toBe('tool_calls');
    // Event by event: the upstream's argument pieces are not gathered into one.
    expect(argumentPieces).toBeGreaterThan(1);
    const call = first.choices[0]?.message.tool_calls?.[0];
    if (call?.type !== 'function') throw new Error('expected a function call');
    expect(JSON.parse(call.function.arguments)).toMatchObject({ city: expect.any(String) });

    const message = first.choices[0]!.message;
    const follow = openai.chat.completions.stream({
      model: 'gpt-4o-mini',
      messages: [ask, { role: 'assistant', content: message.content, tool_calls: message.tool_calls }, { role: 'tool', tool_call_id: call.id, content: result }],
      tools: [chatWeather],
      stream_options: { include_usage: true },
    });
    const second = await follow.finalChatCompletion();
    expect(second.choices[0]?.finish_reason).toBe('stop');
    expect(second.choices[0]?.message.content).toMatch(/21/);
    expect(second.usage?.total_tokens).toBe(second.usage!.prompt_tokens + second.usage!.completion_tokens);

    const [asked, answered] = twoRequests(pair);
    expect([asked.body.stream, answered.body.stream]).toEqual([true, true]);
    expect(callIdsAnswered(protocol, asked)).toEqual([call.id]);
    expect(conversationSent(protocol, answered.body).results).toEqual([{ id: call.id, output: result }]);
  }, 60_000);

  it('openai responses: previous_response_id continues a conversation the gateway stored, sent whole to the upstream', async () => {
    const pair = freshPair();
    const { openai } = openaiFor(pair.gateway.baseUrl);
    const first = await openai.responses.create({ model: 'gpt-4o-mini', tools: [responsesWeather], input: 'What is the weather in Lisbon?' });
    expect(first).toMatchObject({ status: 'completed', store: true });
    const call = first.output.find((item) => item.type === 'function_call');
    if (call?.type !== 'function_call') throw new Error(`expected a function call, got ${JSON.stringify(first.output)}`);
    expect(call.name).toBe('get_weather');

    const output = '{"temperature": 23, "sky": "sunny"}';
    const second = await openai.responses.create({
      model: 'gpt-4o-mini',
      tools: [responsesWeather],
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output }],
    });
    expect(second).toMatchObject({ status: 'completed', previous_response_id: first.id });
    expect(second.output_text).toMatch(/23/);
    expect((await openai.responses.retrieve(first.id)).id).toBe(first.id);

    const [asked, answered] = twoRequests(pair);
    expect(callIdsAnswered(protocol, asked)).toEqual([call.call_id]);
    // The upstream is sent the whole conversation, never the gateway's response id.
    const sent = conversationSent(protocol, answered.body);
    expect(sent.userTexts).toContainEqual(expect.stringMatching(/weather in Lisbon/));
    expect(sent.calls).toEqual([call.call_id]);
    expect(sent.results).toEqual([{ id: call.call_id, output }]);
    expect(JSON.stringify(answered.body)).not.toContain(first.id);
    if (protocol === 'openai-responses') {
      // A Responses upstream keeps nothing: the gateway asks it not to store, and it does not know the id.
      expect([asked.body.store, answered.body.store]).toEqual([false, false]);
      expect('previous_response_id' in answered.body).toBe(false);
      const stored = await fetch(`${pair.upstream.baseUrl}/v1/responses/${first.id}`, { headers: { authorization: 'Bearer sk-demo-ultimate' } });
      expect(stored.status).toBe(404);
    }
  }, 60_000);

  it('anthropic messages.stream: a tool_use round trip, its id the one the upstream gave', async () => {
    const pair = freshPair();
    const { anthropic } = anthropicFor(pair.gateway.baseUrl);
    const request = { model: 'claude-haiku-4-5', max_tokens: 1024, tools: [anthropicWeather], messages: [{ role: 'user' as const, content: 'What is the weather in Lisbon?' }] };
    const stream = anthropic.messages.stream(request);
    let json = '';
    stream.on('inputJson', (partial) => (json += partial));
    const first = await stream.finalMessage();
    expect(first.stop_reason).toBe('tool_use');
    const call = first.content.find((b) => b.type === 'tool_use');
    if (call?.type !== 'tool_use') throw new Error(`expected a tool_use block, got ${JSON.stringify(first.content)}`);
    expect(call.name).toBe('get_weather');
    expect(JSON.parse(json)).toEqual(call.input);

    const output = '{"temperature": 23, "sky": "sunny"}';
    const second = await anthropic.messages
      .stream({ ...request, messages: [...request.messages, { role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: output }] }] })
      .finalMessage();
    expect(second.stop_reason).toBe('end_turn');
    const text = second.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
    expect(text).toMatch(/23/);
    expect(text).toMatch(/sunny/);

    const [asked, answered] = twoRequests(pair);
    expect([asked.body.stream, answered.body.stream]).toEqual([true, true]);
    const [upstreamId, ...more] = callIdsAnswered(protocol, asked);
    expect(more).toEqual([]);
    // An Anthropic upstream's id as it is; another protocol's call id made a toolu_ id the client can send back.
    if (protocol === 'anthropic-messages') expect(call.id).toBe(upstreamId);
    else expect(call.id).toMatch(new RegExp(`^toolu_\\w*${upstreamId!.replace(/^call_/, '')}$`));
    const sent = conversationSent(protocol, answered.body);
    expect(sent.calls).toEqual([call.id]);
    expect(sent.results).toEqual([{ id: call.id, output }]);
  }, 60_000);
});
