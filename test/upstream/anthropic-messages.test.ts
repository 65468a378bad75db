// The Anthropic Messages upstream: the gateway's request in its terms, and its documented answers and
// streams (fixtures/anthropic-messages/) read back.
import { describe, expect, it } from 'vitest';
import { collect } from '../../src/server/domain/answer-events.ts';
import type { ChatRequest } from '../../src/server/domain/chat.ts';
import { DEFAULT_MAX_TOKENS, eventsFrom, fromUpstream, toUpstream } from '../../src/server/upstream/protocols/anthropic-messages.ts';
import { eventOf, feed, fixtureEvents, fixtureJson, stepsOf, stepsThenError, upstreamErrorOf } from './streams.ts';

const weather = {
  type: 'function' as const,
  function: { name: 'get_weather', description: 'Current weather in a city.', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};
const pngData = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';
const hi: ChatRequest['messages'] = [{ role: 'user', content: 'Hi' }];
const answerSchema = { type: 'object', properties: { text: { type: 'string' } }, additionalProperties: false };

describe('Anthropic Messages upstream: requests', () => {
  it('puts the system prompt apart, images as sources, calls as tool_use and results in one user turn before the text', () => {
    const request: ChatRequest = {
      model: 'gateway-model',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: [{ type: 'text', text: 'What are these, and the weather in Paris and Rome?' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${pngData}`, detail: 'low' } }, { type: 'image_url', image_url: { url: 'https://example.com/rome.jpg' } }] },
        {
          role: 'assistant',
          content: 'Let me look.',
          tool_calls: [
            { id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'toolu_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_1', content: '{"temp":21}' },
        { role: 'tool', tool_call_id: 'toolu_2', content: [{ type: 'text', text: '{"temp":' }, { type: 'text', text: '25}' }] },
        { role: 'user', content: 'And tomorrow?' },
        { role: 'system', content: [{ type: 'text', text: 'Answer in French.' }] },
      ],
      tools: [weather, { type: 'function', function: { name: 'now', strict: true } }],
      toolChoice: 'required',
      parallelToolCalls: false,
      stopSequences: ['\n\nHuman:'],
      maxTokens: 300,
      temperature: 0.5,
      seed: 7,
      responseFormat: { type: 'json_schema', name: 'answer', schema: answerSchema },
    };
    expect(toUpstream(request, 'claude-sonnet-4-5', true)).toEqual({
      path: '/v1/messages',
      body: {
        model: 'claude-sonnet-4-5',
        max_tokens: 300,
        system: [{ type: 'text', text: 'You are terse.' }, { type: 'text', text: 'Answer in French.' }],
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What are these, and the weather in Paris and Rome?' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: pngData } },
              { type: 'image', source: { type: 'url', url: 'https://example.com/rome.jpg' } },
            ],
          },
          {
            role: 'assistant',
            content: [
              { type: 'text', text: 'Let me look.' },
              { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
              { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: { city: 'Rome' } },
            ],
          },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'toolu_1', content: '{"temp":21}' },
              { type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: '{"temp":' }, { type: 'text', text: '25}' }] },
              { type: 'text', text: 'And tomorrow?' },
            ],
          },
        ],
        stream: true,
        temperature: 0.5,
        stop_sequences: ['\n\nHuman:'],
        tools: [
          { name: 'get_weather', description: 'Current weather in a city.', input_schema: weather.function.parameters },
          { name: 'now', input_schema: { type: 'object', properties: {} }, strict: true },
        ],
        tool_choice: { type: 'any', disable_parallel_tool_use: true },
        output_config: { format: { type: 'json_schema', schema: answerSchema } },
      },
    });
  });

  it(`sends max_tokens ${DEFAULT_MAX_TOKENS} when the client gave none, and nothing it was not given`, () => {
    expect(toUpstream({ model: 'm', messages: hi }, 'claude-haiku-4-5', false)).toEqual({
      path: '/v1/messages',
      body: { model: 'claude-haiku-4-5', max_tokens: DEFAULT_MAX_TOKENS, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] },
    });
  });

  it.each<[string, Partial<ChatRequest>, unknown]>([
    ['auto', { toolChoice: 'auto' }, { type: 'auto' }],
    ['none', { toolChoice: 'none', parallelToolCalls: false }, { type: 'none' }],
    ['required', { toolChoice: 'required' }, { type: 'any' }],
    ['a named function', { toolChoice: { type: 'function', function: { name: 'get_weather' } }, parallelToolCalls: false }, { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true }],
    ['no choice, one call at most', { parallelToolCalls: false }, { type: 'auto', disable_parallel_tool_use: true }],
    ['no choice', { parallelToolCalls: true }, undefined],
  ])('sends tool_choice %s as Anthropic names it', (_, settings, expected) => {
    expect(toUpstream({ model: 'm', messages: hi, tools: [weather], ...settings }, 'claude-haiku-4-5', false).body.tool_choice).toEqual(expected);
  });

  it('leaves out an assistant turn that says nothing, and empty text', () => {
    const { body } = toUpstream({ model: 'm', messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: '' }, { role: 'user', content: [{ type: 'text', text: '' }, { type: 'text', text: 'Hello?' }] }] }, 'claude-haiku-4-5', false);
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      { role: 'user', content: [{ type: 'text', text: 'Hello?' }] },
    ]);
  });

  it.each<[string, Partial<ChatRequest>, string]>([
    ['a temperature above 1', { temperature: 1.5 }, 'its temperature ranges from 0 to 1 and the request asks for 1.5. Send a temperature between 0 and 1.'],
    ['json_object output', { responseFormat: { type: 'json_object' } }, 'it has no JSON-object mode (`response_format` json_object); its structured output takes a JSON schema. Send a json_schema format instead.'],
    ['a BMP image', { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/bmp;base64,Qk0=' } }] }] }, 'it takes JPEG, PNG, GIF and WebP images, not image/bmp. Convert the image to one of those.'],
    ['an image neither http(s) nor data', { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'ftp://example.com/a.png' } }] }] }, 'an image must be an http(s) URL or a base64 `data:` URL; this one is neither. Send the image in one of those forms.'],
  ])('refuses %s, saying why and what to send', (_, settings, sentence) => {
    const error = upstreamErrorOf(() => toUpstream({ model: 'm', messages: hi, ...settings }, 'claude-haiku-4-5', false));
    expect(error.failure).toBe('unsupported');
    expect(error.message).toBe(`This model's upstream speaks Anthropic Messages, which cannot take the request: ${sentence}`);
  });
});

describe('Anthropic Messages upstream: answers', () => {
  it('reads the documented message', () => {
    expect(fromUpstream(fixtureJson('anthropic-messages/message.json'))).toEqual({
      content: 'Hi! My name is Claude.',
      contentPieces: ['Hi! My name is Claude.'],
      toolCalls: [],
      finishReason: 'stop',
      stopSequence: null,
      promptTokens: 2095,
      completionTokens: 503,
    });
  });

  it("reads the documented tool_use message: the input object as JSON text (the guide's example has no usage: -1)", () => {
    expect(fromUpstream(fixtureJson('anthropic-messages/message-tool-use.json'))).toEqual({
      content: "I'll check the current weather in San Francisco for you.",
      contentPieces: ["I'll check the current weather in San Francisco for you."],
      toolCalls: [{ id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_weather', arguments: '{"location":"San Francisco, CA","unit":"celsius"}', argumentPieces: ['{"location":"San Francisco, CA","unit":"celsius"}'] }],
      finishReason: 'tool_calls',
      stopSequence: null,
      promptTokens: -1,
      completionTokens: -1,
    });
  });

  it.each<[string, string | null, string, string | null]>([
    ['end_turn', null, 'stop', null],
    ['stop_sequence', '\n\nHuman:', 'stop', '\n\nHuman:'],
    ['max_tokens', null, 'length', null],
    ['model_context_window_exceeded', null, 'length', null],
    ['tool_use', null, 'tool_calls', null],
    ['refusal', null, 'stop', null],
    ['pause_turn', null, 'stop', null],
  ])('reads stop_reason %s as %s', (reason, sequence, finish, stopSequence) => {
    const message = { ...fixtureJson('anthropic-messages/message.json'), stop_reason: reason, stop_sequence: sequence };
    expect(fromUpstream(message)).toMatchObject({ finishReason: finish, stopSequence });
  });

  it('counts the prompt as the input tokens plus those read from and written to the cache', () => {
    const message = { ...fixtureJson('anthropic-messages/message.json'), usage: { input_tokens: 10, cache_creation_input_tokens: 200, cache_read_input_tokens: 3000, output_tokens: 5 } };
    expect(fromUpstream(message)).toMatchObject({ promptTokens: 3210, completionTokens: 5 });
  });

  it.each([
    ['an error body', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }],
    ['a message without a stop reason', { type: 'message', content: [{ type: 'text', text: 'Hi' }] }],
    ['a tool_use block without input', { type: 'message', content: [{ type: 'tool_use', id: 'toolu_1', name: 'f' }], stop_reason: 'tool_use' }],
  ])('refuses %s as malformed', (_, json) => {
    expect(upstreamErrorOf(() => fromUpstream(json)).failure).toBe('malformed');
  });
});

describe('Anthropic Messages upstream: streams', () => {
  it('reads the documented basic stream, passing over its ping', async () => {
    expect(await stepsOf(eventsFrom(feed(fixtureEvents('anthropic-messages/stream.sse'))))).toEqual([
      { type: 'text', text: 'Hello' },
      { type: 'text', text: '!' },
      { type: 'end', finishReason: 'stop', stopSequence: null, promptTokens: 25, completionTokens: 15 },
    ]);
  });

  it('reads the documented tool use stream: text, then the call and its input_json_delta pieces', async () => {
    const steps = await stepsOf(eventsFrom(feed(fixtureEvents('anthropic-messages/stream-tool-use.sse'))));
    const answer = await collect(steps);
    expect(answer.content).toBe("Okay, let's check the weather for San Francisco, CA:");
    expect(steps.find((s) => s.type === 'tool-call')).toEqual({ type: 'tool-call', index: 0, id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather' });
    // The empty first partial_json makes no step.
    expect(answer.toolCalls[0]!.argumentPieces).toEqual(['{"location":', ' "San', ' Francisc', 'o,', ' CA"', ', ', '"unit": "fah', 'renheit"}']);
    expect(JSON.parse(answer.toolCalls[0]!.arguments)).toEqual({ location: 'San Francisco, CA', unit: 'fahrenheit' });
    expect(steps.at(-1)).toEqual({ type: 'end', finishReason: 'tool_calls', stopSequence: null, promptTokens: 472, completionTokens: 89 });
  });

  it('fails with `stream` on the documented error event mid-stream, after the text before it', async () => {
    const events = [...fixtureEvents('anthropic-messages/stream.sse').slice(0, 4), ...fixtureEvents('anthropic-messages/error-event.sse')];
    const { steps, error } = await stepsThenError(eventsFrom(feed(events)));
    expect(steps).toEqual([{ type: 'text', text: 'Hello' }]);
    expect(error.failure).toBe('stream');
    expect(error.detail.upstreamMessage).toBe('overloaded_error: Overloaded');
  });

  it('names the stop sequence, and takes the latest usage a message_delta reports', async () => {
    const events = fixtureEvents('anthropic-messages/stream.sse');
    events.splice(-2, 1, eventOf({
      type: 'message_delta',
      delta: { stop_reason: 'stop_sequence', stop_sequence: 'END' },
      usage: { input_tokens: 10682, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 510 },
    }));
    expect((await stepsOf(eventsFrom(feed(events)))).at(-1)).toEqual({ type: 'end', finishReason: 'stop', stopSequence: 'END', promptTokens: 10682, completionTokens: 510 });
  });

  it('passes over thinking blocks and event types it does not know', async () => {
    const events = fixtureEvents('anthropic-messages/stream.sse');
    events.splice(1, 0,
      eventOf({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } }),
      eventOf({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Let me think.' } }),
      eventOf({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqQB' } }),
      eventOf({ type: 'content_block_stop', index: 0 }),
      eventOf({ type: 'some_future_event', detail: 1 }),
    );
    expect((await collect(await stepsOf(eventsFrom(feed(events))))).content).toBe('Hello!');
  });

  it('fails when message_stop comes before any stop reason', async () => {
    const events = fixtureEvents('anthropic-messages/stream.sse').filter((e) => e.event !== 'message_delta');
    const { steps, error } = await stepsThenError(eventsFrom(feed(events)));
    expect(steps).toHaveLength(2);
    expect(error.failure).toBe('malformed');
  });
});
