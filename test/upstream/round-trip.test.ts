// Each upstream protocol module against the project's own reference server, in process: the request a module
// writes is one the server takes, and the server's answer (JSON, and its stream) read back by the module is
// the answer the server's engine gives for that request as the server reads it: the same text, tool calls,
// finish reason, stop sequence and usage, and for streams the same pieces.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toChatRequest as readMessages } from '../../src/server/client-protocols/anthropic-messages/request.ts';
import { toChatRequest as readChat } from '../../src/server/client-protocols/openai-chat/request.ts';
import { buildApp } from '../../src/server/app.ts';
import { collect } from '../../src/server/domain/answer-events.ts';
import { answerChat } from '../../src/server/domain/engine/text/index.ts';
import type { ChatAnswer, ChatRequest } from '../../src/server/domain/chat.ts';
import { toChatRequest as readResponse } from '../../src/server/client-protocols/openai-responses/request.ts';
import { textProtocols, type TextProtocolName, type UpstreamRequest } from '../../src/server/upstream/protocols/index.ts';
import { bodyEvents } from './streams.ts';

let app: Awaited<ReturnType<typeof buildApp>>;
beforeAll(async () => {
  app = await buildApp({ store: 'memory', logger: false });
});
afterAll(async () => {
  await app.close();
});

const MODEL = 'gpt-4o-mini';
type Body = Record<string, any>;

/** The reference's reading of each protocol's request, and the id its answers give the engine's call ids. */
const reference: Record<TextProtocolName, { read: (body: Body) => ChatRequest; callId: (id: string) => string; url: (path: string) => string }> = {
  'openai-chat': { read: (body) => readChat(body as never, body.model), callId: (id) => id, url: (path) => `/v1${path}` },
  'openai-responses': { read: (body) => readResponse(body as never, [], body.model), callId: (id) => id, url: (path) => `/v1${path}` },
  'anthropic-messages': { read: (body) => readMessages(body as never, body.model), callId: (id) => `toolu_${id.replace(/^call_/, '')}`, url: (path) => path },
};

async function send(name: TextProtocolName, request: UpstreamRequest) {
  const res = await app.inject({
    method: 'POST',
    url: reference[name].url(request.path),
    headers: { authorization: 'Bearer sk-demo-ultimate', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
    payload: JSON.stringify(request.body),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

const weather = {
  type: 'function' as const,
  function: { name: 'get_weather', description: 'Current weather in a city.', parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } }, required: ['city'] } },
};
const pixel = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';
const question: ChatRequest['messages'] = [
  { role: 'system', content: 'You are a concise assistant.' },
  { role: 'user', content: 'What should I know about lighthouses?' },
];

const requests: Array<{ title: string; request: ChatRequest; protocols?: TextProtocolName[] }> = [
  { title: 'a question with a system prompt', request: { model: MODEL, messages: question } },
  {
    title: 'text and an image, with temperature and seed',
    request: { model: MODEL, messages: [{ role: 'user', content: [{ type: 'text', text: 'What is in this picture?' }, { type: 'image_url', image_url: { url: pixel } }] }], temperature: 0.7, seed: 42 },
  },
  { title: 'tools that must be called', request: { model: MODEL, messages: [{ role: 'user', content: 'What is the weather in Paris and in Rome?' }], tools: [weather], toolChoice: 'required' } },
  {
    title: 'one call at most, to a named tool',
    request: { model: MODEL, messages: [{ role: 'user', content: 'Weather in Oslo?' }], tools: [weather], toolChoice: { type: 'function', function: { name: 'get_weather' } }, parallelToolCalls: false },
  },
  {
    title: 'tool results to report',
    request: {
      model: MODEL,
      tools: [weather],
      messages: [
        { role: 'user', content: 'What is the weather in Paris and in Rome?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_0a1b2c3d4e5f60718293a4b5', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_1a1b2c3d4e5f60718293a4b5', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_0a1b2c3d4e5f60718293a4b5', content: '{"temp":21,"sky":"clear"}' },
        { role: 'tool', tool_call_id: 'call_1a1b2c3d4e5f60718293a4b5', content: '{"temp":25,"sky":"cloudy"}' },
      ],
    },
  },
  { title: 'a token limit that cuts the text', request: { model: MODEL, messages: question, maxTokens: 7 } },
  {
    title: 'a JSON schema answer',
    request: { model: MODEL, messages: question, responseFormat: { type: 'json_schema', name: 'facts', schema: { type: 'object', properties: { facts: { type: 'array', items: { type: 'string' } } }, required: ['facts'] } } },
    // Anthropic's structured output (output_config) is not read by the reference: nothing to compare there.
    protocols: ['openai-chat', 'openai-responses'],
  },
];

/** The engine's answer without a stop sequence, and a word from its middle to stop at. */
function stopWord(): string {
  const text = answerChat(readMessages(textProtocols['anthropic-messages'].toUpstream({ model: MODEL, messages: question }, MODEL, false).body as never, MODEL)).content!;
  const words = text.split(' ');
  return ` ${words[Math.floor(words.length / 2)]!}`;
}

function expectSame(actual: ChatAnswer, expected: ChatAnswer, callId: (id: string) => string): void {
  expect(actual.content).toBe(expected.content);
  expect(actual.toolCalls.map(({ id, name, arguments: args }) => ({ id, name, args }))).toEqual(
    expected.toolCalls.map(({ id, name, arguments: args }) => ({ id: callId(id), name, args })),
  );
  expect(actual.finishReason).toBe(expected.finishReason);
  expect(actual.stopSequence).toBe(expected.stopSequence);
  expect(actual.promptTokens).toBe(expected.promptTokens);
  expect(actual.completionTokens).toBe(expected.completionTokens);
}

describe.each(Object.keys(textProtocols) as TextProtocolName[])('%s against the reference server', (name) => {
  const protocol = textProtocols[name];
  const { read, callId } = reference[name];
  const cases = [
    ...requests.filter((c) => !c.protocols || c.protocols.includes(name)),
    // OpenAI Chat's `stop` is not read by the reference, and Responses has none: stop sequences go to Anthropic.
    ...(name === 'anthropic-messages' ? [{ title: 'a stop sequence', request: { model: MODEL, messages: question, stopSequences: [stopWord()] } }] : []),
  ];

  it.each(cases)('gives the engine’s answer to $title', async ({ request }) => {
    const upstream = protocol.toUpstream(request, MODEL, false);
    const expected = answerChat({ ...read(upstream.body), model: MODEL });
    expectSame(protocol.fromUpstream((await send(name, upstream)).json()), expected, callId);
  });

  it.each(cases)('gives the engine’s answer, piece by piece, to $title streamed', async ({ request }) => {
    const upstream = protocol.toUpstream(request, MODEL, true);
    const expected = answerChat({ ...read(upstream.body), model: MODEL });
    const res = await send(name, upstream);
    const answer = await collect(protocol.eventsFrom(bodyEvents(res.body, 61)));
    expectSame(answer, expected, callId);
    expect(answer.contentPieces).toEqual(expected.contentPieces);
    expect(answer.toolCalls.map((c) => c.argumentPieces)).toEqual(expected.toolCalls.map((c) => c.argumentPieces));
  });

  it('checks that the cases say something: text, tool calls, a cut and (Anthropic) a stop sequence all occur', () => {
    const finishes = cases.map(({ request }) => answerChat({ ...read(protocol.toUpstream(request, MODEL, false).body), model: MODEL }));
    expect(new Set(finishes.map((a) => a.finishReason))).toEqual(new Set(['stop', 'tool_calls', 'length']));
    if (name === 'anthropic-messages') expect(finishes.some((a) => a.stopSequence !== null)).toBe(true);
  });
});
