/**
 * The gateway's client protocols as the upstream-gateway tests speak them: each protocol's request for the
 * same question (chat completions, Anthropic Messages, Responses, the prompt endpoint), its stream read as a
 * client reads it (strictly framed, every event checked against the contract's schema of that protocol's
 * events), and what the events add up to: the text, the tool calls, how it ended, or the error event it
 * ended with.
 */
import { expect } from 'vitest';
import { contract } from '../../src/contract/index.ts';
import { parseNamedEventStream, readEvents, type NamedEvent } from '../../src/client/sse.ts';
import { anthropicType } from '../../src/server/http/error-formats.ts';
import { call, type Answer } from '../server/http.ts';

/** The gateway key of the tests: its tier reaches every chat model. */
export const CLIENT_KEY = 'sk-demo-ultimate';
/** A chat model of the built-in listing that offers every text endpoint, the prompt one included. */
export const MODEL = 'gpt-4o-mini';

export type StreamingClient = 'chat' | 'messages' | 'responses';
export type ClientProtocol = StreamingClient | 'prompt';

export const streamingClients: readonly StreamingClient[] = ['chat', 'messages', 'responses'];
export const clientProtocols: readonly ClientProtocol[] = [...streamingClients, 'prompt'];

const PATHS: Record<ClientProtocol, string> = {
  chat: '/v1/chat/completions',
  messages: '/v1/messages',
  responses: '/v1/responses',
  prompt: '/v1/generation/prompt',
};

/** One user question in the client protocol's own request shape; `extra` is merged into the body. */
export function requestOf(client: ClientProtocol, stream: boolean, extra: Record<string, unknown> = {}): { path: string; body: Record<string, unknown> } {
  const question = 'What should I know about lighthouses?';
  const body: Record<string, unknown> =
    client === 'chat'
      ? { model: MODEL, messages: [{ role: 'user', content: question }], stream }
      : client === 'messages'
        ? { model: MODEL, max_tokens: 256, messages: [{ role: 'user', content: question }], stream }
        : client === 'responses'
          ? { model: MODEL, input: question, stream }
          : { model: MODEL, prompt: question };
  return { path: PATHS[client], body: { ...body, ...extra } };
}

/** A whole (non-stream) request and its answer. */
export function ask(baseUrl: string, client: ClientProtocol, extra: Record<string, unknown> = {}): Promise<Answer> {
  const { path, body } = requestOf(client, false, extra);
  return call(baseUrl, 'POST', path, { key: CLIENT_KEY, body });
}

/** A stream request; the response as it arrives (its body not yet read). */
export function openStream(baseUrl: string, client: StreamingClient, options: { signal?: AbortSignal; extra?: Record<string, unknown> } = {}): Promise<Response> {
  const { path, body } = requestOf(client, true, options.extra);
  return fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': CLIENT_KEY, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...(options.signal && { signal: options.signal }),
  });
}

/** A client event: its name (`event:` line) and its data, parsed unless it is `[DONE]`. */
export interface ClientEvent {
  event: string | undefined;
  data: any;
}

const schemas = {
  chat: contract.schemaValidator('ChatCompletionStreamEvent'),
  messages: contract.schemaValidator('AnthropicStreamEvent'),
  responses: contract.schemaValidator('ResponseStreamEvent'),
};

/**
 * Every event of a stream response, read to its end: strictly framed (the project's parser), each one valid
 * against the contract's schema of the protocol's events, and named as its `type` where the protocol names
 * them. `onEvent` sees each as it arrives (a test that acts at a known point of the stream).
 */
export async function readStream(res: Response, client: StreamingClient, onEvent: (event: ClientEvent) => void = () => undefined): Promise<ClientEvent[]> {
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const [live, whole] = res.body!.tee();
  const text = new Response(whole).text();
  // A reader that stops early (a client going away) fails both halves: the first failure is the one reported.
  text.catch(() => undefined);
  for await (const event of readEvents(live)) onEvent(parsed(event));
  const { events, problems } = parseNamedEventStream(await text);
  expect(problems, 'the stream is well framed').toEqual([]);
  const all = events.map(parsed);
  for (const [i, { event, data }] of all.entries()) {
    if (data === '[DONE]') continue;
    const validate = schemas[client];
    expect(validate(data), `event ${i} (${JSON.stringify(data).slice(0, 200)}) is the contract's: ${JSON.stringify(validate.errors)}`).toBe(true);
    if (client === 'chat') expect(event, 'chat events are data-only').toBeUndefined();
    else expect(event).toBe(data.type);
  }
  return all;
}

function parsed(event: NamedEvent | { event?: string | undefined; data: string }): ClientEvent {
  return { event: event.event, data: event.data === '[DONE]' ? event.data : JSON.parse(event.data) };
}

export interface Reassembled {
  text: string;
  calls: Array<{ id: string; name: string; arguments: string }>;
  /** How the answer ended in the protocol's words (`stop`, `end_turn`, `completed`…), if it did. */
  finish: string | undefined;
  /** The message of the error event the stream ended with, if it did. */
  error: string | undefined;
}

/** What a stream's events add up to, as the protocol's clients put them together. */
export function reassemble(client: StreamingClient, events: readonly ClientEvent[]): Reassembled {
  const out: Reassembled = { text: '', calls: [], finish: undefined, error: undefined };
  for (const { data } of events) {
    if (data === '[DONE]') continue;
    if (client === 'chat') {
      if (typeof data.error === 'string') out.error = data.error;
      for (const choice of data.choices ?? []) {
        out.text += choice.delta.content ?? '';
        for (const piece of choice.delta.tool_calls ?? []) {
          const known = (out.calls[piece.index] ??= { id: '', name: '', arguments: '' });
          if (piece.id) known.id = piece.id;
          if (piece.function?.name) known.name = piece.function.name;
          known.arguments += piece.function?.arguments ?? '';
        }
        if (choice.finish_reason) out.finish = choice.finish_reason;
      }
    } else if (client === 'messages') {
      if (data.type === 'error') out.error = data.error.message;
      if (data.type === 'content_block_start' && data.content_block.type === 'tool_use') out.calls.push({ id: data.content_block.id, name: data.content_block.name, arguments: '' });
      if (data.type === 'content_block_delta' && data.delta.type === 'text_delta') out.text += data.delta.text;
      if (data.type === 'content_block_delta' && data.delta.type === 'input_json_delta') out.calls.at(-1)!.arguments += data.delta.partial_json;
      if (data.type === 'message_delta') out.finish = data.delta.stop_reason;
    } else {
      if (data.type === 'error') out.error = data.message;
      if (data.type === 'response.output_text.delta') out.text += data.delta;
      if (data.type === 'response.output_item.added' && data.item.type === 'function_call') out.calls.push({ id: data.item.call_id, name: data.item.name, arguments: '' });
      if (data.type === 'response.function_call_arguments.delta') out.calls.at(-1)!.arguments += data.delta;
      if (data.type === 'response.completed' || data.type === 'response.incomplete') out.finish = data.response.status;
    }
  }
  return out;
}

/**
 * A stream that failed after it began: its last event is the protocol's error event (Anthropic's with the
 * error type of `status`), nothing that ends an answer came before it, and the events before it are the
 * protocol's usual opening. Returns what the stream had said by then, and the error's message.
 */
export function expectFailedStream(client: StreamingClient, events: readonly ClientEvent[], status: number): Reassembled & { error: string } {
  expect(events.length).toBeGreaterThan(1);
  const last = events.at(-1)!;
  const before = events.slice(0, -1);
  if (client === 'chat') {
    expect(Object.keys(last.data)).toEqual(['error']);
    expect(typeof last.data.error).toBe('string');
    expect(events.some((e) => e.data === '[DONE]'), 'no [DONE] after a failure').toBe(false);
    expect(before.every((e) => e.data.object === 'chat.completion.chunk' && e.data.id === before[0]!.data.id)).toBe(true);
    expect(before[0]!.data.choices[0].delta.role).toBe('assistant');
    expect(before.some((e) => e.data.choices.some((c: any) => c.finish_reason !== null)), 'no finish_reason before the failure').toBe(false);
  } else if (client === 'messages') {
    expect(last).toEqual({ event: 'error', data: { type: 'error', error: { type: anthropicType(status), message: expect.any(String) } } });
    expect(before[0]!.event).toBe('message_start');
    expect(before.map((e) => e.event)).not.toContain('message_stop');
    expect(before.map((e) => e.event)).not.toContain('message_delta');
  } else {
    expect(last).toEqual({ event: 'error', data: { type: 'error', code: null, message: expect.any(String), param: null, sequence_number: before.length } });
    expect(before.map((e) => e.data.sequence_number)).toEqual(before.map((_, i) => i));
    expect(before.slice(0, 2).map((e) => e.event)).toEqual(['response.created', 'response.in_progress']);
    expect(before.map((e) => e.event)).not.toContain('response.completed');
  }
  const said = reassemble(client, events);
  return { ...said, error: said.error! };
}

/** The message of an error answer, in the shape its operation uses (Anthropic's on /v1/messages). */
export function errorMessage(client: ClientProtocol, answer: Answer, status: number): string {
  expect(answer.status, answer.text).toBe(status);
  if (client === 'messages') {
    expect(answer.body).toEqual({ type: 'error', error: { type: anthropicType(status), message: expect.any(String) } });
    return answer.body.error.message;
  }
  expect(answer.body).toEqual({ error: expect.any(String) });
  return answer.body.error;
}
