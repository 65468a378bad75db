/**
 * The HTTP side of an upstream: one pool of kept-alive connections per upstream (undici), the request sent as
 * JSON (an image edit: as a multipart form) with the operator's key, and what comes back read as JSON or as a
 * server-sent event stream, event by event as it arrives (the project's one SSE reader). Time limits on the
 * connection, the first byte and the silence between two pieces of a stream; a client that goes away aborts
 * the upstream request. Every failure becomes an `UpstreamError`; the operator's key appears in none of them.
 */
import { Readable } from 'node:stream';
import { FormData as UndiciFormData, Pool, errors as undiciErrors, type Dispatcher } from 'undici';
import { readEvents } from '../../client/sse.ts';
import { UpstreamError } from './errors.ts';
import type { UpstreamEvent } from './protocols/index.ts';

export interface UpstreamTimeouts {
  /** To open a connection (then 504). */
  connectMs: number;
  /** From the request sent to the answer's first byte (then 504). */
  firstByteMs: number;
  /** Between two pieces of an answer, a stream's events included (then the answer fails). */
  idleMs: number;
}

export const defaultTimeouts: UpstreamTimeouts = { connectMs: 10_000, firstByteMs: 120_000, idleMs: 60_000 };

export interface UpstreamTarget {
  /** Its `base_url`, as the vendor's SDK takes it (OpenAI's ends in `/v1`, Anthropic's is the server root). */
  baseUrl: string;
  /** The headers that carry the operator's key and what the protocol wants on every request. */
  headers: Record<string, string>;
  timeouts: UpstreamTimeouts;
  /** How many connections the pool keeps to it. */
  connections?: number;
}

/** How much of an error answer is read for its message. */
const ERROR_BODY_BYTES = 64 * 1024;
/** How much of a JSON answer is read at most: far more than any answer of a model, not unbounded. */
const ANSWER_BYTES = 64 * 1024 * 1024;

export class UpstreamClient {
  readonly #pool: Pool;
  readonly #prefix: string;
  readonly #origin: string;

  constructor(private readonly target: UpstreamTarget) {
    const url = new URL(target.baseUrl);
    this.#origin = url.origin;
    this.#prefix = url.pathname.replace(/\/$/, '');
    this.#pool = new Pool(url.origin, {
      connections: target.connections ?? 64,
      connect: { timeout: target.timeouts.connectMs },
      headersTimeout: target.timeouts.firstByteMs,
      bodyTimeout: target.timeouts.idleMs,
      keepAliveTimeout: 30_000,
    });
  }

  /** Where it is, for messages: its origin, never its key. */
  get origin(): string {
    return this.#origin;
  }

  /** Sends `body` to `path` and reads the JSON answer. */
  async json(path: string, body: unknown, signal?: AbortSignal): Promise<unknown> {
    return this.#jsonAnswer(await this.#send(path, asJson(body), 'application/json', signal));
  }

  /**
   * Sends `form` to `path` as multipart/form-data (undici writes the content type with its boundary) and
   * reads the JSON answer, as `json` does.
   */
  async form(path: string, form: FormData, signal?: AbortSignal): Promise<unknown> {
    return this.#jsonAnswer(await this.#send(path, { body: undiciForm(form) }, 'application/json', signal));
  }

  /**
   * Sends `body` to `path` and, once the upstream has begun a stream (a refusal before is thrown here), gives
   * its events as each arrives.
   */
  async stream(path: string, body: unknown, signal?: AbortSignal): Promise<AsyncIterable<UpstreamEvent>> {
    const res = await this.#send(path, asJson(body), 'text/event-stream', signal);
    const type = String(res.headers['content-type'] ?? '');
    if (!type.startsWith('text/event-stream')) {
      // undici's body, destroyed before its end, emits an 'error' (RequestAbortedError): unheard, that is an
      // uncaught exception that ends the gateway's process. The body is let go of, its error ignored.
      res.body.on('error', () => undefined).destroy();
      throw new UpstreamError('malformed', `The upstream ${this.#origin} answered a stream request with ${type || 'no content type'}, not text/event-stream.`);
    }
    return this.#events(res);
  }

  async *#events(res: Dispatcher.ResponseData): AsyncGenerator<UpstreamEvent> {
    try {
      for await (const event of readEvents(Readable.toWeb(res.body) as ReadableStream<Uint8Array>)) yield event.event ? { event: event.event, data: event.data } : { data: event.data };
    } catch (error) {
      throw failure(error, this.#origin);
    }
  }

  async close(): Promise<void> {
    await this.#pool.close();
  }

  async #jsonAnswer(res: Dispatcher.ResponseData): Promise<unknown> {
    const text = await readText(res.body, ANSWER_BYTES, this.#origin);
    try {
      return JSON.parse(text);
    } catch {
      throw new UpstreamError('malformed', `The upstream ${this.#origin} answered something that is not JSON.`);
    }
  }

  async #send(path: string, payload: Payload, accept: string, signal?: AbortSignal): Promise<Dispatcher.ResponseData> {
    let res: Dispatcher.ResponseData;
    try {
      // Copied by Object.assign, not by a spread: on Node 20 a spread copy given more keys gets a hidden class
      // of its own each time (test/server/hidden-classes.test.ts).
      const headers: Record<string, string> = Object.assign({}, this.target.headers);
      if (payload.type !== undefined) headers['content-type'] = payload.type;
      headers.accept = accept;
      res = await this.#pool.request({
        method: 'POST',
        path: `${this.#prefix}${path}`,
        headers,
        body: payload.body,
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      throw failure(error, this.#origin, 'request');
    }
    if (res.statusCode >= 400) {
      const text = await readText(res.body, ERROR_BODY_BYTES, this.#origin).catch(() => '');
      const retryAfter = Number(res.headers['retry-after']);
      throw new UpstreamError('status', `The upstream ${this.#origin} answered ${res.statusCode}.`, {
        status: res.statusCode,
        ...(messageOf(text) ? { upstreamMessage: messageOf(text)! } : {}),
        ...(Number.isFinite(retryAfter) && retryAfter >= 0 ? { retryAfter } : {}),
      });
    }
    return res;
  }
}

/** A request body, and its content type when undici does not write one itself (it does for a form). */
interface Payload {
  body: string | UndiciFormData;
  type?: string;
}

function asJson(body: unknown): Payload {
  return { body: JSON.stringify(body), type: 'application/json' };
}

/**
 * The form as undici's own FormData: undici knows a form by its class, and Node's global FormData is the
 * class of the undici copy inside Node, another one (undici then fails with "action is not a function").
 * The entries move over; the files' bytes are not copied.
 */
function undiciForm(form: FormData): UndiciFormData {
  if (form instanceof UndiciFormData) return form;
  const own = new UndiciFormData();
  for (const [name, value] of form) {
    if (typeof value === 'string') own.append(name, value);
    else own.append(name, value, value.name);
  }
  return own;
}

/** An error body's message in any of the shapes (OpenAI's and Anthropic's `error.message`, the gateway's `error`). */
function messageOf(text: string): string | undefined {
  try {
    const json = JSON.parse(text) as { error?: unknown; message?: unknown };
    if (typeof json.error === 'string') return json.error;
    const nested = (json.error as { message?: unknown } | undefined)?.message;
    if (typeof nested === 'string') return nested;
    if (typeof json.message === 'string') return json.message;
  } catch {
    // not JSON: no message to pass on
  }
  return undefined;
}

async function readText(body: Dispatcher.ResponseData['body'], limit: number, origin: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      size += (chunk as Buffer).length;
      if (size > limit) {
        body.destroy();
        throw new UpstreamError('malformed', `The upstream ${origin} answered more than ${limit} bytes.`);
      }
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    throw failure(error, origin);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * What went wrong on the way, as an `UpstreamError` (one already is passes through): before any answer (the
 * request), or in the middle of one (the answer).
 */
function failure(error: unknown, origin: string, during: 'request' | 'answer' = 'answer'): UpstreamError {
  if (error instanceof UpstreamError) return error;
  const e = error as Error & { code?: string; cause?: { code?: string } };
  if (e.name === 'AbortError' || e instanceof undiciErrors.RequestAbortedError) return new UpstreamError('stream', 'The request was abandoned by its client.');
  if (e instanceof undiciErrors.ConnectTimeoutError) return new UpstreamError('timeout', `The upstream ${origin} could not be connected to in time.`);
  if (e instanceof undiciErrors.HeadersTimeoutError) return new UpstreamError('timeout', `The upstream ${origin} did not begin its answer in time.`);
  if (e instanceof undiciErrors.BodyTimeoutError) return new UpstreamError('timeout', `The upstream ${origin} went silent in the middle of its answer.`);
  const code = e.code ?? e.cause?.code;
  if (during === 'answer') return new UpstreamError('stream', `The upstream ${origin} cut its answer off (${code ?? e.message}).`);
  return new UpstreamError('unreachable', `The upstream ${origin} cannot be reached (${code ?? e.message}).`);
}
