// The OpenAI Chat Completions upstream: the gateway's request in its terms, and its documented answers and
// streams (fixtures/openai-chat/) read back.
import { describe, expect, it } from 'vitest';
import { collect } from '../../src/server/domain/answer-events.ts';
import type { ChatRequest } from '../../src/server/domain/chat.ts';
import { eventsFrom, fromUpstream, MAX_STOP_SEQUENCES, toUpstream } from '../../src/server/upstream/protocols/openai-chat.ts';
import { eventOf, feed, fixtureEvents, fixtureJson, stepsOf, stepsThenError, upstreamErrorOf } from './streams.ts';

const weather = {
  type: 'function' as const,
  function: { name: 'get_weather', description: 'Current weather in a city.', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};
const pixel = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';

const conversation: ChatRequest['messages'] = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: [{ type: 'text', text: 'What is in this picture, and the weather in Paris?' }, { type: 'image_url', image_url: { url: pixel, detail: 'low' } }] },
  { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
  { role: 'tool', tool_call_id: 'call_1', content: '{"temp":21}' },
];

describe('OpenAI Chat Completions upstream: requests', () => {
  it('sends the conversation as it is, with every setting under its reference name', () => {
    const request: ChatRequest = {
      model: 'gateway-model',
      messages: conversation,
      tools: [weather],
      toolChoice: { type: 'function', function: { name: 'get_weather' } },
      parallelToolCalls: false,
      stopSequences: ['\n\n', 'END'],
      maxTokens: 300,
      temperature: 0.2,
      seed: 7,
      responseFormat: { type: 'json_schema', name: 'answer', schema: { type: 'object' } },
    };
    expect(toUpstream(request, 'gpt-4o-mini', false)).toEqual({
      path: '/chat/completions',
      body: {
        model: 'gpt-4o-mini',
        messages: conversation,
        tools: [weather],
        tool_choice: { type: 'function', function: { name: 'get_weather' } },
        parallel_tool_calls: false,
        stop: ['\n\n', 'END'],
        max_completion_tokens: 300,
        temperature: 0.2,
        seed: 7,
        response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' } } },
      },
    });
  });

  it('asks for the usage in a stream, and sends nothing it was not given', () => {
    const { body } = toUpstream({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] }, 'gpt-4o-mini', true);
    expect(body).toEqual({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], stream: true, stream_options: { include_usage: true } });
  });

  it('sends tool_choice and parallel_tool_calls only with tools, and json_object as it is', () => {
    const { body } = toUpstream(
      { model: 'm', messages: [{ role: 'user', content: 'Hi' }], tools: [], toolChoice: 'required', parallelToolCalls: false, responseFormat: { type: 'json_object' } },
      'gpt-4o-mini',
      false,
    );
    expect(body).not.toHaveProperty('tools');
    expect(body).not.toHaveProperty('tool_choice');
    expect(body).not.toHaveProperty('parallel_tool_calls');
    expect(body.response_format).toEqual({ type: 'json_object' });
  });

  it(`sends up to ${MAX_STOP_SEQUENCES} stop sequences as stop, and none beyond (the gateway keeps them itself)`, () => {
    const request = (stopSequences: string[]) => ({ model: 'm', messages: [{ role: 'user' as const, content: 'Hi' }], stopSequences });
    expect(toUpstream(request(['a', 'b', 'c', 'd']), 'gpt-4o-mini', false).body.stop).toEqual(['a', 'b', 'c', 'd']);
    expect(toUpstream(request(['a', 'b', 'c', 'd', 'e']), 'gpt-4o-mini', false).body).not.toHaveProperty('stop');
  });
});

describe('OpenAI Chat Completions upstream: answers', () => {
  it('reads the documented chat completion: its text as one piece, the finish reason, the usage', () => {
    const answer = fromUpstream(fixtureJson('openai-chat/completion.json'));
    expect(answer).toEqual({
      content: expect.stringMatching(/^The image shows a wooden boardwalk path/),
      contentPieces: [answer.content],
      toolCalls: [],
      finishReason: 'stop',
      stopSequence: null,
      promptTokens: 1117,
      completionTokens: 46,
    });
  });

  it('reads the documented tool calls (no text: content null)', () => {
    expect(fromUpstream(fixtureJson('openai-chat/completion-tool-calls.json'))).toEqual({
      content: null,
      contentPieces: [],
      toolCalls: [{ id: 'call_abc123', name: 'get_current_weather', arguments: '{\n"location": "Boston, MA"\n}', argumentPieces: ['{\n"location": "Boston, MA"\n}'] }],
      finishReason: 'tool_calls',
      stopSequence: null,
      promptTokens: 82,
      completionTokens: 17,
    });
  });

  it.each([
    ['length', 'length'],
    ['content_filter', 'stop'],
    ['function_call', 'tool_calls'],
    ['stop', 'stop'],
  ])('reads finish_reason %s as %s', (reason, expected) => {
    const completion = fixtureJson('openai-chat/completion.json');
    completion.choices[0].finish_reason = reason;
    expect(fromUpstream(completion).finishReason).toBe(expected);
  });

  it('reads `stop` on an answer holding tool calls as tool_calls (so that clients run them)', () => {
    const completion = fixtureJson('openai-chat/completion-tool-calls.json');
    completion.choices[0].finish_reason = 'stop';
    expect(fromUpstream(completion).finishReason).toBe('tool_calls');
  });

  it('reads a refusal as the text of the answer', () => {
    const completion = fixtureJson('openai-chat/completion.json');
    Object.assign(completion.choices[0].message, { content: null, refusal: "I'm sorry, I can't help with that." });
    expect(fromUpstream(completion).content).toBe("I'm sorry, I can't help with that.");
  });

  it('leaves the token counts at -1 when the upstream reports no usage', () => {
    const { usage: _, ...completion } = fixtureJson('openai-chat/completion.json');
    expect(fromUpstream(completion)).toMatchObject({ promptTokens: -1, completionTokens: -1 });
  });

  it.each([
    ['an error object', { error: { message: 'Bad', type: 'invalid_request_error' } }],
    ['text', 'Service Unavailable'],
    ['a choice without a message', { object: 'chat.completion', choices: [{ index: 0, finish_reason: 'stop' }] }],
    ['a tool call without arguments', { choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f' } }] }, finish_reason: 'tool_calls' }] }],
    ['no finish reason', { choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' } }] }],
  ])('refuses %s as malformed', (_, json) => {
    expect(upstreamErrorOf(() => fromUpstream(json)).failure).toBe('malformed');
  });
});

describe('OpenAI Chat Completions upstream: streams', () => {
  it('reads the documented stream (no usage chunk: token counts -1)', async () => {
    expect(await stepsOf(eventsFrom(feed(fixtureEvents('openai-chat/stream.sse'))))).toEqual([
      { type: 'text', text: 'Hello' },
      { type: 'end', finishReason: 'stop', stopSequence: null, promptTokens: -1, completionTokens: -1 },
    ]);
  });

  it('reads the documented tool call deltas by index, id and name first, and the usage chunk', async () => {
    const steps = await stepsOf(eventsFrom(feed(fixtureEvents('openai-chat/stream-tool-calls.sse'))));
    expect(steps[0]).toEqual({ type: 'tool-call', index: 0, id: 'call_DdmO9pD3xa9XTPNJ32zg2hcA', name: 'get_weather' });
    expect(steps.slice(1, -1)).toEqual(['{"', 'location', '":"', 'Paris', ',', ' France', '"}'].map((text) => ({ type: 'tool-arguments', index: 0, text })));
    expect(steps.at(-1)).toEqual({ type: 'end', finishReason: 'tool_calls', stopSequence: null, promptTokens: 82, completionTokens: 17 });
    const answer = await collect(steps);
    expect(JSON.parse(answer.toolCalls[0]!.arguments)).toEqual({ location: 'Paris, France' });
  });

  it('numbers several calls from 0 in the order they begin, whatever their index', async () => {
    const chunk = (delta: object, finish: string | null = null) => eventOf({ object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] });
    const steps = await stepsOf(eventsFrom(feed([
      chunk({ tool_calls: [{ index: 3, id: 'call_a', type: 'function', function: { name: 'a', arguments: '{}' } }] }),
      chunk({ tool_calls: [{ index: 5, id: 'call_b', type: 'function', function: { name: 'b', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 5, function: { arguments: '{"x":1}' } }] }),
      chunk({}, 'tool_calls'),
      { data: '[DONE]' },
    ])));
    expect(steps.slice(0, -1)).toEqual([
      { type: 'tool-call', index: 0, id: 'call_a', name: 'a' },
      { type: 'tool-arguments', index: 0, text: '{}' },
      { type: 'tool-call', index: 1, id: 'call_b', name: 'b' },
      { type: 'tool-arguments', index: 1, text: '{"x":1}' },
    ]);
  });

  it('fails with `stream` on an error chunk mid-stream, after the text before it', async () => {
    // OpenAI reports a failure after the stream began as a chunk holding `error`, which its SDK throws.
    const events = [...fixtureEvents('openai-chat/stream.sse').slice(0, 2), eventOf({ error: { message: 'The server had an error while processing your request.', type: 'server_error' } })];
    const { steps, error } = await stepsThenError(eventsFrom(feed(events)));
    expect(steps).toEqual([{ type: 'text', text: 'Hello' }]);
    expect(error.failure).toBe('stream');
    expect(error.detail.upstreamMessage).toBe('The server had an error while processing your request.');
  });

  it('fails when [DONE] comes without a finish reason', async () => {
    const events = [...fixtureEvents('openai-chat/stream.sse').slice(0, 2), { data: '[DONE]' }];
    const { steps, error } = await stepsThenError(eventsFrom(feed(events)));
    expect(steps).toEqual([{ type: 'text', text: 'Hello' }]);
    expect(error.failure).toBe('malformed');
  });

  it('fails when the stream stops after the finish reason but before [DONE]', async () => {
    const { error } = await stepsThenError(eventsFrom(feed(fixtureEvents('openai-chat/stream.sse').slice(0, -1))));
    expect(error.failure).toBe('stream');
    expect(error.message).toContain('[DONE]');
  });
});
