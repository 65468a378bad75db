// The OpenAI Responses upstream: the gateway's request in its terms, and its documented answers and streams
// (fixtures/openai-responses/) read back.
import { describe, expect, it } from 'vitest';
import { collect } from '../../src/server/domain/answer-events.ts';
import type { ChatRequest } from '../../src/server/domain/chat.ts';
import { eventsFrom, fromUpstream, toUpstream } from '../../src/server/upstream/protocols/openai-responses.ts';
import { eventOf, feed, fixtureEvents, fixtureJson, stepsOf, stepsThenError, upstreamErrorOf } from './streams.ts';

const weather = {
  type: 'function' as const,
  function: { name: 'get_weather', description: 'Current weather in a city.', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};
const pixel = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';

describe('OpenAI Responses upstream: requests', () => {
  it('sends the conversation as input items, kept in order, and every setting under its reference name', () => {
    const request: ChatRequest = {
      model: 'gateway-model',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: [{ type: 'text', text: 'What is this, and the weather there?' }, { type: 'image_url', image_url: { url: pixel } }, { type: 'image_url', image_url: { url: 'https://example.com/paris.jpg', detail: 'high' } }] },
        { role: 'assistant', content: 'Let me look.', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: [{ type: 'text', text: '{"temp":' }, { type: 'text', text: '21}' }] },
        { role: 'system', content: [{ type: 'text', text: 'Answer in French.' }, { type: 'text', text: 'Be kind.' }] },
      ],
      tools: [weather, { type: 'function', function: { name: 'now', strict: true } }],
      toolChoice: { type: 'function', function: { name: 'get_weather' } },
      parallelToolCalls: false,
      maxTokens: 300,
      temperature: 1.4,
      seed: 7,
      responseFormat: { type: 'json_schema', name: 'answer', schema: { type: 'object' } },
    };
    expect(toUpstream(request, 'gpt-4.1', true)).toEqual({
      path: '/responses',
      body: {
        model: 'gpt-4.1',
        input: [
          { role: 'system', content: 'You are terse.' },
          {
            role: 'user',
            content: [
              { type: 'input_text', text: 'What is this, and the weather there?' },
              { type: 'input_image', image_url: pixel, detail: 'auto' },
              { type: 'input_image', image_url: 'https://example.com/paris.jpg', detail: 'high' },
            ],
          },
          { role: 'assistant', content: 'Let me look.' },
          { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { type: 'function_call_output', call_id: 'call_1', output: '{"temp":21}' },
          { role: 'system', content: [{ type: 'input_text', text: 'Answer in French.' }, { type: 'input_text', text: 'Be kind.' }] },
        ],
        store: false,
        stream: true,
        tools: [
          { type: 'function', name: 'get_weather', description: 'Current weather in a city.', parameters: weather.function.parameters, strict: false },
          { type: 'function', name: 'now', parameters: { type: 'object', properties: {} }, strict: true },
        ],
        tool_choice: { type: 'function', name: 'get_weather' },
        parallel_tool_calls: false,
        max_output_tokens: 300,
        temperature: 1.4,
        text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object' } } },
      },
    });
  });

  it('sends a one-text user message as a string, tool_choice modes as they are, and json_object', () => {
    const { body } = toUpstream(
      { model: 'm', messages: [{ role: 'user', content: 'Hi' }], tools: [weather], toolChoice: 'required', responseFormat: { type: 'json_object' } },
      'gpt-4.1',
      false,
    );
    expect(body).toMatchObject({ input: [{ role: 'user', content: 'Hi' }], tool_choice: 'required', text: { format: { type: 'json_object' } } });
    expect(body).not.toHaveProperty('stream');
  });

  it('sends no stop sequences, which the protocol does not have (the gateway keeps them itself)', () => {
    const { body } = toUpstream({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], stopSequences: ['END'] }, 'gpt-4.1', false);
    expect(JSON.stringify(body)).not.toContain('END');
  });

  it('takes an empty list of stop sequences as none', () => {
    expect(toUpstream({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], stopSequences: [] }, 'gpt-4.1', false).body).not.toHaveProperty('stop');
  });
});

describe('OpenAI Responses upstream: answers', () => {
  it('reads the documented response: its text as one piece, completed, the usage', () => {
    const answer = fromUpstream(fixtureJson('openai-responses/response.json'));
    expect(answer).toMatchObject({ finishReason: 'stop', stopSequence: null, promptTokens: 36, completionTokens: 87, toolCalls: [] });
    expect(answer.content).toMatch(/^In a peaceful grove beneath a silver moon/);
    expect(answer.contentPieces).toEqual([answer.content]);
  });

  it('reads the documented function call (call_id is the call id)', () => {
    expect(fromUpstream(fixtureJson('openai-responses/response-function-call.json'))).toEqual({
      content: null,
      contentPieces: [],
      toolCalls: [{ id: 'call_unLAR8MvFNptuiZK6K6HCy5k', name: 'get_current_weather', arguments: '{"location":"Boston, MA","unit":"celsius"}', argumentPieces: ['{"location":"Boston, MA","unit":"celsius"}'] }],
      finishReason: 'tool_calls',
      stopSequence: null,
      promptTokens: 291,
      completionTokens: 23,
    });
  });

  it('reads the documented incomplete response as length, with no usage reported (-1)', () => {
    expect(fromUpstream(fixtureJson('openai-responses/incomplete-event.json').response)).toMatchObject({ content: '', finishReason: 'length', promptTokens: -1, completionTokens: -1 });
  });

  it.each([
    ['max_output_tokens', 'length'],
    ['content_filter', 'stop'],
  ])('reads incomplete_details.reason %s as %s', (reason, expected) => {
    const response = { ...fixtureJson('openai-responses/response.json'), status: 'incomplete', incomplete_details: { reason } };
    expect(fromUpstream(response).finishReason).toBe(expected);
  });

  it("gives the documented failed response's own words as a `stream` failure", () => {
    const error = upstreamErrorOf(() => fromUpstream(fixtureJson('openai-responses/failed-event.json').response));
    expect(error.failure).toBe('stream');
    expect(error.detail.upstreamMessage).toBe('The model failed to generate a response.');
  });

  it.each([
    ['an error object', { error: { message: 'Bad', type: 'invalid_request_error' } }],
    ['a response still in progress', { object: 'response', status: 'in_progress', output: [] }],
    ['a function call without its call_id', { object: 'response', status: 'completed', output: [{ type: 'function_call', name: 'f', arguments: '{}' }] }],
  ])('refuses %s as malformed', (_, json) => {
    expect(upstreamErrorOf(() => fromUpstream(json)).failure).toBe('malformed');
  });
});

describe('OpenAI Responses upstream: streams', () => {
  it('reads the documented stream: a step per text delta, the end with the usage of response.completed', async () => {
    const steps = await stepsOf(eventsFrom(feed(fixtureEvents('openai-responses/stream.sse'))));
    expect(steps.slice(0, -1)).toEqual(['Hi', ' there!', ' How', ' can', ' I', ' assist', ' you', ' today?'].map((text) => ({ type: 'text', text })));
    expect(steps.at(-1)).toEqual({ type: 'end', finishReason: 'stop', stopSequence: null, promptTokens: 37, completionTokens: 11 });
  });

  it('reads the documented function call events, ending with the response the reference documents for them', async () => {
    // The guide's events stop before the response's end; its end is the documented function call response.
    const completed = eventOf({ type: 'response.completed', response: fixtureJson('openai-responses/response-function-call.json') });
    const steps = await stepsOf(eventsFrom(feed([...fixtureEvents('openai-responses/stream-function-call.sse'), completed])));
    expect(steps[0]).toEqual({ type: 'tool-call', index: 0, id: 'call_1234xyz', name: 'get_weather' });
    expect(steps.slice(1, -1)).toEqual(['{"', 'location', '":"', 'Paris', ',', ' France', '"}'].map((text) => ({ type: 'tool-arguments', index: 0, text })));
    expect(steps.at(-1)).toEqual({ type: 'end', finishReason: 'tool_calls', stopSequence: null, promptTokens: 291, completionTokens: 23 });
    expect((await collect(steps)).toolCalls[0]!.arguments).toBe('{"location":"Paris, France"}');
  });

  it("fails with `stream` when the guide's events stop before the response's end", async () => {
    const { steps, error } = await stepsThenError(eventsFrom(feed(fixtureEvents('openai-responses/stream-function-call.sse'))));
    expect(steps).toHaveLength(8);
    expect(error.failure).toBe('stream');
  });

  it('takes the arguments of a call whose deltas never came from its finished item, once', async () => {
    const item = { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'now', arguments: '' };
    const steps = await stepsOf(eventsFrom(feed([
      eventOf({ type: 'response.output_item.added', output_index: 0, item }),
      eventOf({ type: 'response.output_item.done', output_index: 0, item: { ...item, arguments: '{}' } }),
      eventOf({ type: 'response.completed', response: { status: 'completed', output: [], usage: { input_tokens: 5, output_tokens: 2 } } }),
    ])));
    expect(steps).toEqual([
      { type: 'tool-call', index: 0, id: 'call_1', name: 'now' },
      { type: 'tool-arguments', index: 0, text: '{}' },
      { type: 'end', finishReason: 'tool_calls', stopSequence: null, promptTokens: 5, completionTokens: 2 },
    ]);
  });

  it('ends with the documented response.incomplete as length, its usage unreported (-1)', async () => {
    const events = [...fixtureEvents('openai-responses/stream.sse').slice(0, 5), eventOf(fixtureJson('openai-responses/incomplete-event.json'))];
    expect(await stepsOf(eventsFrom(feed(events)))).toEqual([
      { type: 'text', text: 'Hi' },
      { type: 'end', finishReason: 'length', stopSequence: null, promptTokens: -1, completionTokens: -1 },
    ]);
  });

  it.each([
    ['the documented error event', 'openai-responses/error-event.json', 'Something went wrong'],
    ['the documented response.failed event', 'openai-responses/failed-event.json', 'The model failed to generate a response.'],
  ])('fails with `stream` on %s mid-stream, after the text before it', async (_, fixture, words) => {
    const events = [...fixtureEvents('openai-responses/stream.sse').slice(0, 6), eventOf(fixtureJson(fixture))];
    const { steps, error } = await stepsThenError(eventsFrom(feed(events)));
    expect(steps).toEqual([{ type: 'text', text: 'Hi' }, { type: 'text', text: ' there!' }]);
    expect(error.failure).toBe('stream');
    expect(error.detail.upstreamMessage).toBe(words);
    expect(error.message).toContain(words);
  });
});
