// The vendors' published example exchanges (test/upstream/fixtures/, sources in its README) replayed by an
// upstream over real HTTP, and what each of the gateway's client protocols receives for them: the text, the
// tool calls (id, name, arguments reassembled from their pieces), how the answer ended and what the upstream
// said it cost, equal to what the fixture says; the fixtures' error events (Anthropic's overloaded_error,
// Responses' error and response.failed) put after the first events of an answer end the client's stream with
// its own error event.
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import { baseUrlFor, upstreamCatalogue, type TextProtocol } from '../helpers/upstream-gateway.ts';
import { eventOf, fixtureEvents, fixtureJson, fixtureText } from '../upstream/streams.ts';
import { ask, clientProtocols, expectFailedStream, openStream, readStream, reassemble, streamingClients, type ClientEvent, type ClientProtocol, type StreamingClient } from './clients.ts';
import { okJson, rawStream, startFaultyUpstream, stream, type Behaviour, type FaultyUpstream } from './faulty-upstream.ts';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

async function replaying(protocol: TextProtocol, behaviour: Behaviour): Promise<{ upstream: FaultyUpstream; gateway: TestServer }> {
  const upstream = await startFaultyUpstream();
  cleanup.push(() => upstream.close());
  upstream.answer = behaviour;
  const gateway = await startServer({ catalogue: upstreamCatalogue(protocol, baseUrlFor(protocol, upstream.origin)), environment: { UPSTREAM_KEY: 'sk-operator-fixtures' } });
  cleanup.push(() => gateway.close());
  return { upstream, gateway };
}

interface Call {
  id: string;
  name: string;
  arguments: string;
}

/** What a fixture's answer is, read off the fixture by hand. */
interface Said {
  text: string;
  calls: Call[];
  finish: 'stop' | 'tool_calls';
  /** The upstream's token counts, when the fixture has them. */
  usage?: { input: number; output: number };
}

/** A call's id as each client protocol names it (Anthropic's are `toolu_…`). */
function idFor(client: ClientProtocol, id: string): string {
  return client === 'messages' && !id.startsWith('toolu_') ? `toolu_${id.replace(/^call_/, '')}` : id;
}

/** How each client protocol says the answer ended. */
const finishes: Record<ClientProtocol, Record<Said['finish'], string>> = {
  chat: { stop: 'stop', tool_calls: 'tool_calls' },
  prompt: { stop: 'stop', tool_calls: 'stop' },
  messages: { stop: 'end_turn', tool_calls: 'tool_use' },
  responses: { stop: 'completed', tool_calls: 'completed' },
};

/** The calls as a client got them, arguments compared as JSON where the protocol gives an object (Anthropic's input). */
function expectCalls(client: ClientProtocol, got: Array<{ id: string; name: string; arguments: unknown }>, said: Call[]): void {
  expect(got).toEqual(said.map((c) => ({ id: idFor(client, c.id), name: c.name, arguments: client === 'messages' && typeof got[0]?.arguments === 'object' ? JSON.parse(c.arguments) : c.arguments })));
}

/** The usage a stream reported at its end, in each protocol's place for it. */
function streamUsage(client: StreamingClient, events: readonly ClientEvent[]): { input: number; output: number } {
  const data = events.map((e) => e.data).filter((d) => d !== '[DONE]');
  if (client === 'chat') {
    const { usage } = data.find((d) => d.usage)!;
    return { input: usage.prompt_tokens, output: usage.completion_tokens };
  }
  if (client === 'messages') {
    const start = data.find((d) => d.type === 'message_start')!;
    const delta = data.find((d) => d.type === 'message_delta')!;
    // message_delta carries the upstream's input count when it differs from message_start's (D31).
    return { input: delta.usage.input_tokens ?? start.message.usage.input_tokens, output: delta.usage.output_tokens };
  }
  const { usage } = data.find((d) => d.type === 'response.completed')!.response;
  return { input: usage.input_tokens, output: usage.output_tokens };
}

const streams: Array<{ protocol: TextProtocol; file: string; said: Said }> = [
  { protocol: 'openai-chat', file: 'openai-chat/stream.sse', said: { text: 'Hello', calls: [], finish: 'stop' } },
  {
    protocol: 'openai-chat',
    file: 'openai-chat/stream-tool-calls.sse',
    said: { text: '', calls: [{ id: 'call_DdmO9pD3xa9XTPNJ32zg2hcA', name: 'get_weather', arguments: '{"location":"Paris, France"}' }], finish: 'tool_calls', usage: { input: 82, output: 17 } },
  },
  { protocol: 'anthropic-messages', file: 'anthropic-messages/stream.sse', said: { text: 'Hello!', calls: [], finish: 'stop', usage: { input: 25, output: 15 } } },
  {
    protocol: 'anthropic-messages',
    file: 'anthropic-messages/stream-tool-use.sse',
    said: {
      text: "Okay, let's check the weather for San Francisco, CA:",
      calls: [{ id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather', arguments: '{"location": "San Francisco, CA", "unit": "fahrenheit"}' }],
      finish: 'tool_calls',
      usage: { input: 472, output: 89 },
    },
  },
  { protocol: 'openai-responses', file: 'openai-responses/stream.sse', said: { text: 'Hi there! How can I assist you today?', calls: [], finish: 'stop', usage: { input: 37, output: 11 } } },
];

describe.each(streams)('the $file stream, replayed by an upstream', ({ protocol, file, said }) => {
  it.each(streamingClients)('reaches a %s client as the fixture says', async (client) => {
    const { gateway } = await replaying(protocol, rawStream(fixtureText(file)));
    const events = await readStream(await openStream(gateway.baseUrl, client, { extra: client === 'chat' ? { stream_options: { include_usage: true } } : {} }), client);
    const got = reassemble(client, events);
    expect(got.error).toBeUndefined();
    expect(got.text).toBe(said.text);
    expectCalls(client, got.calls, said.calls);
    expect(got.finish).toBe(finishes[client][said.finish]);
    if (said.usage) expect(streamUsage(client, events)).toEqual(said.usage);
    if (client === 'chat') expect(events.at(-1)!.data).toBe('[DONE]');
  });
});

/** A fixture stream's events, each framed again as the upstream sends it. */
const framed = (file: string) => fixtureEvents(file);

const failing: Array<{ title: string; protocol: TextProtocol; events: () => ReturnType<typeof framed>; text: string; calls: Call[]; says: string }> = [
  {
    title: "anthropic-messages/error-event.sse after stream.sse's first events",
    protocol: 'anthropic-messages',
    // message_start, content_block_start, ping, the first text delta: then Anthropic's mid-stream error.
    events: () => [...framed('anthropic-messages/stream.sse').slice(0, 4), ...framed('anthropic-messages/error-event.sse')],
    text: 'Hello',
    calls: [],
    says: 'overloaded_error: Overloaded',
  },
  {
    title: "openai-responses/error-event.json after stream.sse's first text delta",
    protocol: 'openai-responses',
    events: () => [...framed('openai-responses/stream.sse').slice(0, 5), eventOf(fixtureJson('openai-responses/error-event.json'))],
    text: 'Hi',
    calls: [],
    says: 'Something went wrong',
  },
  {
    title: 'openai-responses/failed-event.json after stream-function-call.sse',
    protocol: 'openai-responses',
    events: () => [...framed('openai-responses/stream-function-call.sse'), eventOf(fixtureJson('openai-responses/failed-event.json'))],
    text: '',
    calls: [{ id: 'call_1234xyz', name: 'get_weather', arguments: '{"location":"Paris, France"}' }],
    says: 'The model failed to generate a response.',
  },
];

describe.each(failing)('$title, replayed by an upstream', ({ protocol, events, text, calls, says }) => {
  it.each(streamingClients)("ends a %s client's stream with its error event, what came before intact", async (client) => {
    const { upstream, gateway } = await replaying(protocol, stream(events()));
    const received = await readStream(await openStream(gateway.baseUrl, client), client);
    const failed = expectFailedStream(client, received, 502);
    expect(failed.text).toBe(text);
    expectCalls(client, failed.calls, calls);
    expect(failed.error).toContain(says);
    expect(failed.error).toContain(upstream.origin);
  });
});

const wholes: Array<{ protocol: TextProtocol; file: string }> = [
  { protocol: 'openai-chat', file: 'openai-chat/completion.json' },
  { protocol: 'openai-chat', file: 'openai-chat/completion-tool-calls.json' },
  { protocol: 'anthropic-messages', file: 'anthropic-messages/message.json' },
  { protocol: 'anthropic-messages', file: 'anthropic-messages/message-tool-use.json' },
  { protocol: 'openai-responses', file: 'openai-responses/response.json' },
  { protocol: 'openai-responses', file: 'openai-responses/response-function-call.json' },
];

/** What a whole fixture answer says, read off it in its vendor's documented fields. */
function saidBy(protocol: TextProtocol, json: any): Said {
  const usage = (input: unknown, output: unknown) => (typeof input === 'number' && typeof output === 'number' ? { usage: { input, output } } : {});
  if (protocol === 'openai-chat') {
    const message = json.choices[0].message;
    const calls = (message.tool_calls ?? []).map((c: any) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }));
    return { text: message.content ?? '', calls, finish: calls.length > 0 ? 'tool_calls' : 'stop', ...usage(json.usage?.prompt_tokens, json.usage?.completion_tokens) };
  }
  if (protocol === 'anthropic-messages') {
    const text = json.content.filter((b: any) => b.type === 'text').map((b: any) => b.text).join('');
    const calls = json.content.filter((b: any) => b.type === 'tool_use').map((b: any) => ({ id: b.id, name: b.name, arguments: JSON.stringify(b.input) }));
    return { text, calls, finish: calls.length > 0 ? 'tool_calls' : 'stop', ...usage(json.usage?.input_tokens, json.usage?.output_tokens) };
  }
  const text = json.output.filter((i: any) => i.type === 'message').flatMap((i: any) => i.content.map((p: any) => p.text)).join('');
  const calls = json.output.filter((i: any) => i.type === 'function_call').map((i: any) => ({ id: i.call_id, name: i.name, arguments: i.arguments }));
  return { text, calls, finish: calls.length > 0 ? 'tool_calls' : 'stop', ...usage(json.usage?.input_tokens, json.usage?.output_tokens) };
}

/** What a client's whole answer says, in the same terms. */
function readAnswer(client: ClientProtocol, body: any): { text: string; calls: Array<{ id: string; name: string; arguments: unknown }>; finish: string; usage: { input: number; output: number } } {
  if (client === 'chat') {
    const { message, finish_reason } = body.choices[0];
    const calls = (message.tool_calls ?? []).map((c: any) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }));
    return { text: message.content ?? '', calls, finish: finish_reason, usage: { input: body.usage.prompt_tokens, output: body.usage.completion_tokens } };
  }
  if (client === 'prompt') return { text: body.choices[0].text, calls: [], finish: body.choices[0].finish_reason, usage: { input: body.usage.prompt_tokens, output: body.usage.completion_tokens } };
  if (client === 'messages') {
    const text = body.content.filter((b: any) => b.type === 'text').map((b: any) => b.text).join('');
    const calls = body.content.filter((b: any) => b.type === 'tool_use').map((b: any) => ({ id: b.id, name: b.name, arguments: b.input }));
    return { text, calls, finish: body.stop_reason, usage: { input: body.usage.input_tokens, output: body.usage.output_tokens } };
  }
  const text = body.output.filter((i: any) => i.type === 'message').flatMap((i: any) => i.content.map((p: any) => p.text)).join('');
  const calls = body.output.filter((i: any) => i.type === 'function_call').map((i: any) => ({ id: i.call_id, name: i.name, arguments: i.arguments }));
  return { text, calls, finish: body.status, usage: { input: body.usage.input_tokens, output: body.usage.output_tokens } };
}

describe.each(wholes)('the $file answer, replayed by an upstream', ({ protocol, file }) => {
  const said = saidBy(protocol, fixtureJson(file));
  // The prompt endpoint answers text only: it is asked of the fixtures without tool calls.
  const clients = clientProtocols.filter((client) => client !== 'prompt' || said.calls.length === 0);

  it.each(clients)('reaches a %s client as the fixture says', async (client) => {
    const { gateway } = await replaying(protocol, okJson(fixtureJson(file)));
    const answer = await ask(gateway.baseUrl, client);
    expect(answer.status, answer.text).toBe(200);
    const got = readAnswer(client, answer.body);
    expect(got.text).toBe(said.text);
    expectCalls(client, got.calls, said.calls);
    expect(got.finish).toBe(finishes[client][said.finish]);
    if (said.usage) expect(got.usage).toEqual(said.usage);
  });
});
