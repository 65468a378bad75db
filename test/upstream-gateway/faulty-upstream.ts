/**
 * A faulty upstream for the gateway's failure tests: a node:http server on 127.0.0.1, port 0, whose answer
 * each test sets (`upstream.answer = …`) from the behaviours below: an error status with a vendor's body and
 * headers, a request accepted and never answered, a stream of events that then ends, is cut, goes silent or
 * is held until the test lets it go, or the request passed on to a real server (`forward`: a fault proxy in
 * front of a reference server, healthy until switched, or cutting its stream midway). `down()` makes it
 * refuse connections (as a provider that is gone), `up()` listen again on the same port. It records every request (method, path, headers, body) and whether the
 * gateway let go of it before its answer ended (`request.abandoned`), which is how a test sees that a client
 * going away aborted the upstream request. Plus the vendor-shaped events and error bodies of each text
 * protocol, so that a test can say "the first events of an answer, then this failure" in any of them.
 *
 * @example
 *   const upstream = await startFaultyUpstream();
 *   upstream.answer = errorStatus(500, openaiError('The server had an error'));
 *   … the gateway's request …
 *   await upstream.close();
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TextProtocol } from '../helpers/upstream-gateway.ts';

export interface ReceivedRequest {
  method: string;
  /** Path and query, as sent (`/v1/chat/completions`). */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The body as JSON, when it is. */
  json: any;
  /** Resolves when the connection closed before this request's answer was sent whole: the gateway let it go. */
  abandoned: Promise<void>;
  /** Whether that has happened yet. */
  readonly wasAbandoned: boolean;
}

/** What the upstream does with a request (its body already read). */
export type Behaviour = (res: ServerResponse, request: ReceivedRequest) => void | Promise<void>;

export interface FaultyUpstream {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** Every request so far, in order of arrival. */
  received: ReceivedRequest[];
  /** What the next requests get (a 500 until a test says otherwise). */
  answer: Behaviour;
  /** The `n`-th request (from 0) once it has arrived. */
  request(n?: number): Promise<ReceivedRequest>;
  /** Refuses connections from now on (its kept-alive ones closed), until `up()`. */
  down(): Promise<void>;
  /** Listens again, on the same port. */
  up(): Promise<void>;
  /** Closes the server and every connection it still holds (answers never sent included). */
  close(): Promise<void>;
}

export async function startFaultyUpstream(): Promise<FaultyUpstream> {
  const received: ReceivedRequest[] = [];
  const waiting: Array<{ n: number; resolve: (r: ReceivedRequest) => void }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let json: unknown;
      try {
        json = JSON.parse(body.toString('utf8'));
      } catch {
        json = undefined;
      }
      let abandon!: () => void;
      let wasAbandoned = false;
      const abandoned = new Promise<void>((resolve) => (abandon = resolve));
      // `close` before the answer ended: the other side went away (a cut by the test itself happens after
      // the test asked for it, and no test waits for `abandoned` then).
      res.on('close', () => {
        if (!res.writableFinished) {
          wasAbandoned = true;
          abandon();
        }
      });
      const request: ReceivedRequest = {
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body,
        json,
        abandoned,
        get wasAbandoned() {
          return wasAbandoned;
        },
      };
      received.push(request);
      for (const w of waiting.filter((w) => w.n === received.length - 1)) w.resolve(request);
      void Promise.resolve(upstream.answer(res, request)).catch((error: unknown) => res.destroy(error as Error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const upstream: FaultyUpstream = {
    origin: `http://127.0.0.1:${port}`,
    received,
    answer: errorStatus(500, { error: { message: 'No behaviour was set for this test.', type: 'server_error' } }),
    request(n = 0) {
      if (received[n]) return Promise.resolve(received[n]);
      return new Promise((resolve) => waiting.push({ n, resolve }));
    },
    async down() {
      if (!server.listening) return;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
    async up() {
      if (server.listening) return;
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
    async close() {
      server.closeAllConnections();
      if (!server.listening) return;
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
  return upstream;
}

/**
 * A port nothing listens on: a server's, taken and let go (the system does not hand it out again at once).
 */
export async function deadOrigin(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

// ——— Behaviours ———

/** An error answer: `status`, the body as JSON, and any headers (`retry-after`). */
export function errorStatus(status: number, body: unknown, headers: Record<string, string> = {}): Behaviour {
  return (res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  };
}

/** A 200 with this body (`string`: sent as it is, with `contentType`). */
export function okJson(body: unknown, contentType = 'application/json'): Behaviour {
  return (res) => {
    res.writeHead(200, { 'content-type': contentType }).end(typeof body === 'string' ? body : JSON.stringify(body));
  };
}

/** The request is taken and never answered: no status, no byte (the gateway's first-byte limit must end it). */
export function neverAnswer(): Behaviour {
  return () => undefined;
}

/**
 * The request passed on to the server at `origin` (a reference server), its answer passed back as it comes:
 * status, headers and body. With `cut`, a stream is cut (the socket destroyed) once `afterEvents` events have
 * been passed back and `when` has resolved (such as "the client has read the first text"): a stream that
 * breaks midway, at a known point, without timing.
 */
export function forward(origin: string, options: { cut?: { afterEvents: number; when: Promise<unknown> } } = {}): Behaviour {
  return (res, request) =>
    new Promise<void>((resolve, reject) => {
      const { host: _host, connection: _connection, ...headers } = request.headers;
      const out = httpRequest(`${origin}${request.url}`, { method: request.method, headers }, (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        const cut = options.cut;
        let events = 0;
        answer.on('data', (chunk: Buffer) => {
          if (!cut || events >= cut.afterEvents) {
            if (!cut) res.write(chunk);
            return;
          }
          // Passed on event by event, however the chunks fall, up to the last event before the cut.
          let text = chunk.toString('utf8');
          let end = text.indexOf('\n\n');
          while (end >= 0 && events < cut.afterEvents) {
            events++;
            res.write(text.slice(0, end + 2));
            text = text.slice(end + 2);
            end = text.indexOf('\n\n');
          }
          if (events < cut.afterEvents) {
            res.write(text);
            return;
          }
          answer.destroy();
          void cut.when.then(() => {
            res.socket?.destroy();
            resolve();
          });
        });
        answer.on('end', () => {
          // A stream being cut never ends well, however soon the rest of it arrived.
          if (cut && events >= cut.afterEvents) return;
          res.end();
          resolve();
        });
        answer.on('error', () => undefined);
      });
      out.on('error', reject);
      out.end(request.body);
    });
}

/** One server-sent event as the upstream sends it: its `data` (JSON unless a string), its name if it has one. */
export interface UpstreamSse {
  event?: string;
  data: unknown;
}

export function frame(event: UpstreamSse): string {
  return `${event.event === undefined ? '' : `event: ${event.event}\n`}data: ${typeof event.data === 'string' ? event.data : JSON.stringify(event.data)}\n\n`;
}

/**
 * What a stream does after its events: `end` the answer well, `cut` it (the socket destroyed, no end of
 * the chunked body), or stay `silent` with the connection open (the gateway's idle limit must end it).
 */
export type StreamEnd = 'end' | 'cut' | 'silent';

/**
 * A 200 `text/event-stream` that sends `events`, then ends as `then` says. The events go in one write: no
 * pause between them can pass for the silence an idle limit waits for, however busy the machine.
 */
export function stream(events: readonly UpstreamSse[], then: StreamEnd = 'end'): Behaviour {
  return async (res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    // Node holds the head back until the first byte of the body: a stream begins with its head, events or not.
    res.flushHeaders();
    if (events.length > 0) await write(res, events.map(frame).join(''));
    if (then === 'end') res.end();
    else if (then === 'cut') res.socket?.destroy();
  };
}

/** A 200 `text/event-stream` whose body is these bytes, as they are (a vendor's fixture file), then ended. */
export function rawStream(text: string): Behaviour {
  return (res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' }).end(text);
  };
}

/**
 * A stream that sends `events`, then waits for `release` (a test's promise, such as "the client has read the
 * first events") before doing as `then` says: a test can act at a known point of the stream without timing.
 */
export function heldStream(events: readonly UpstreamSse[], release: Promise<unknown>, after: readonly UpstreamSse[] = [], then: StreamEnd = 'end'): Behaviour {
  return async (res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.flushHeaders();
    if (events.length > 0) await write(res, events.map(frame).join(''));
    await release;
    if (res.destroyed) return;
    if (after.length > 0) await write(res, after.map(frame).join(''));
    if (then === 'end') res.end();
    else if (then === 'cut') res.socket?.destroy();
  };
}

function write(res: ServerResponse, text: string): Promise<void> {
  return new Promise((resolve, reject) => res.write(text, (error) => (error ? reject(error) : resolve())));
}

// ——— Each text protocol's events and error bodies, as its vendor documents them ———

/** OpenAI's error body (`{"error": {"message", "type", "param", "code"}}`), used by both OpenAI protocols. */
export function openaiError(message: string, type = 'invalid_request_error'): unknown {
  return { error: { message, type, param: null, code: null } };
}

/** Anthropic's error body. */
export function anthropicError(message: string, type = 'invalid_request_error'): unknown {
  return { type: 'error', error: { type, message } };
}

/** The error body of a protocol, in its vendor's shape. */
export function vendorError(protocol: TextProtocol, message: string, type?: string): unknown {
  return protocol === 'anthropic-messages' ? anthropicError(message, type) : openaiError(message, type);
}

export interface ProtocolEvents {
  /** The first events of an answer, up to and including a text piece (`text`). */
  start(text: string): UpstreamSse[];
  /** The events that end that answer well ("stop", with usage). */
  finish(): UpstreamSse[];
  /** The protocol's own error event in the middle of a stream, carrying `message`. */
  error(message: string): UpstreamSse;
  /** A whole (non-stream) answer of `text`. */
  whole(text: string): unknown;
}

const CHAT_HEAD = { id: 'chatcmpl-upstream', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'upstream-model' };

const RESPONSE = { id: 'resp_upstream', object: 'response', created_at: 1_700_000_000, model: 'upstream-model', error: null, incomplete_details: null };
const MESSAGE_ITEM = { id: 'msg_upstream', type: 'message', role: 'assistant' };

/** Events of each text protocol, each as its vendor's reference prints them. */
export const protocolEvents: Record<TextProtocol, ProtocolEvents> = {
  'openai-chat': {
    start: (text) => [
      { data: { ...CHAT_HEAD, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }] } },
      { data: { ...CHAT_HEAD, choices: [{ index: 0, delta: { content: text }, logprobs: null, finish_reason: null }] } },
    ],
    finish: () => [
      { data: { ...CHAT_HEAD, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }] } },
      { data: { ...CHAT_HEAD, choices: [], usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 } } },
      { data: '[DONE]' },
    ],
    // What OpenAI sends when a stream fails after it began (its SDK raises it as an APIError).
    error: (message) => ({ data: { error: { message, type: 'server_error', param: null, code: null } } }),
    whole: (text) => ({
      id: 'chatcmpl-upstream',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'upstream-model',
      choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null }, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 },
    }),
  },
  'anthropic-messages': {
    start: (text) => [
      {
        event: 'message_start',
        data: { type: 'message_start', message: { id: 'msg_upstream', type: 'message', role: 'assistant', content: [], model: 'upstream-model', stop_reason: null, stop_sequence: null, usage: { input_tokens: 9, output_tokens: 1 } } },
      },
      { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } },
      { event: 'ping', data: { type: 'ping' } },
      { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } } },
    ],
    finish: () => [
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
      { event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 2 } } },
      { event: 'message_stop', data: { type: 'message_stop' } },
    ],
    error: (message) => ({ event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message } } }),
    whole: (text) => ({
      id: 'msg_upstream',
      type: 'message',
      role: 'assistant',
      model: 'upstream-model',
      content: [{ type: 'text', text }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 9, output_tokens: 2 },
    }),
  },
  'openai-responses': {
    start: (text) => [
      { event: 'response.created', data: { type: 'response.created', sequence_number: 0, response: { ...RESPONSE, status: 'in_progress', output: [] } } },
      { event: 'response.output_item.added', data: { type: 'response.output_item.added', sequence_number: 1, output_index: 0, item: { ...MESSAGE_ITEM, status: 'in_progress', content: [] } } },
      { event: 'response.output_text.delta', data: { type: 'response.output_text.delta', sequence_number: 2, item_id: 'msg_upstream', output_index: 0, content_index: 0, delta: text } },
    ],
    finish: () => [
      {
        event: 'response.completed',
        data: {
          type: 'response.completed',
          sequence_number: 3,
          response: { ...RESPONSE, status: 'completed', output: [], usage: { input_tokens: 9, output_tokens: 2, total_tokens: 11 } },
        },
      },
    ],
    error: (message) => ({ event: 'error', data: { type: 'error', sequence_number: 3, code: 'server_error', message, param: null } }),
    whole: (text) => ({
      ...RESPONSE,
      status: 'completed',
      output: [{ ...MESSAGE_ITEM, status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] }],
      usage: { input_tokens: 9, output_tokens: 2, total_tokens: 11 },
    }),
  },
};
