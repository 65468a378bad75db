/**
 * The one server-sent event writer. Events become a readable stream that the route sends through Fastify's
 * reply like any other body, so CORS, security headers, logging and response hooks apply to streams too; an
 * answer made whole beforehand that fits in one batch (below) is sent as one string body instead.
 *
 * The stream is pulled, not pushed: the next events are made only when the socket has room for them, so a
 * client that reads slowly slows its own stream and nothing else, and memory stays bounded. When the client
 * goes away Fastify destroys the stream, and no further event is made for nobody.
 *
 * Events that are not paced go out in batches of up to `BATCH_CHARACTERS`: the events ready at once (an
 * answer's tokens, all made together) travel through the stream, the HTTP response and the socket as one
 * chunk instead of one each, which would cost every event its own trip through all three. A client reads them
 * as the same events either way. An upstream's events are not batched: each goes out as it
 * arrives, before the next is read.
 */
import { Readable } from 'node:stream';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import { escapedInJson } from '../../lib/canonical-json.ts';

/**
 * One event: `data` is sent as JSON, or as it is when it is a string (`[DONE]`); `event` names it. Or an event
 * already framed (`eventTemplate`'s, one per token: its frame is made in the same concatenation as its JSON).
 */
export type SseEvent = { event?: string; data: unknown; framed?: undefined } | { framed: string };

/** The frame of one event, as OpenAI and Anthropic send them: optional `event:` line, one `data:` line, blank line. */
export function frame(event: SseEvent): string {
  if (event.framed !== undefined) return event.framed;
  const data = typeof event.data === 'string' ? event.data : JSON.stringify(event.data);
  return `${event.event === undefined ? '' : `event: ${event.event}\n`}data: ${data}\n\n`;
}

/**
 * A template's placeholders, one per value (up to nine: a shape with more is made whole each time), and their
 * JSON, made once: JSON.stringify costs some 100 ns a call before it writes anything (V8 11), and a stream
 * makes a template or two.
 */
const MARKS = Array.from({ length: 9 }, (_, i) => `\u0000${i}\u0000`);
const QUOTED_MARKS = MARKS.map((mark) => JSON.stringify(mark));
const MARK_START = '"\\u0000';

/**
 * Events of one shape that differ only in a few values (a stream's deltas: the same id, model and fields
 * around each token; or the events every stream sends once, made for the process with their ids put in),
 * serialised once. `make` is called with a placeholder for each value, and each event is
 * then the JSON around the placeholders with its values' JSON in between: the very text `JSON.stringify`
 * gives for `make(...values)`, without building and serialising the object again for every token. `make`
 * must only place its values; when a placeholder does not come out exactly once, every event is made by
 * `make` itself. `event`, the events' name, may be a function of the values.
 *
 * @example
 * const delta = eventTemplate((text: string) => ({ type: 'text_delta', text }), 'content_block_delta');
 * delta('Hi'); // { framed: 'event: content_block_delta\ndata: {"type":"text_delta","text":"Hi"}\n\n' }
 */
export function eventTemplate<Values extends Array<string | number>>(make: (...values: Values) => object, event?: string | ((...values: Values) => string)): (...values: Values) => SseEvent {
  const slots = make.length;
  const cut = slots <= MARKS.length ? cutAtPlaceholders(JSON.stringify(make(...(MARKS.slice(0, slots) as Values))), slots) : undefined;
  if (!cut) {
    return (...values) => (event === undefined ? { data: make(...values) } : { event: typeof event === 'string' ? event : event(...values), data: make(...values) });
  }
  if (typeof event !== 'function') return filler(framedPieces(cut.pieces, event), cut.order);
  // A name that depends on the values is put in front of each event.
  const pieces = framedPieces(cut.pieces, undefined);
  return (...values) => {
    let framed = `event: ${event(...values)}\n${pieces[0]}`;
    for (let i = 0; i < cut.order.length; i++) framed += jsonOf(values[cut.order[i]!]!) + pieces[i + 1]!;
    return { framed };
  };
}

/**
 * A stream's events whose first values, its `head`, are the same for the whole stream (its id, its item's id)
 * and whose other values change with each event (a token's text, a sequence number), serialised once for the
 * process: each stream puts its head in by joining a few strings, and gets the filler `eventTemplate`
 * would have made with the head's values in `make`, without the JSON.stringify and the search that making a
 * template costs every stream. `heads` is the head's length.
 *
 * @example
 * const delta = streamTemplate(([id]: [string], text: string) => ({ id, text }), 1, 'delta');
 * const deltaOfOneStream = delta('msg_1');
 * deltaOfOneStream('Hi'); // { framed: 'event: delta\ndata: {"id":"msg_1","text":"Hi"}\n\n' }
 */
export function streamTemplate<Head extends Array<string | number>, Values extends Array<string | number>>(
  make: (head: Head, ...values: Values) => object,
  heads: Head['length'],
  event?: string,
): (...head: Head) => (...values: Values) => SseEvent {
  const slots = heads + make.length - 1;
  const cut = slots <= MARKS.length ? cutAtPlaceholders(JSON.stringify(make(MARKS.slice(0, heads) as Head, ...(MARKS.slice(heads, slots) as Values))), slots) : undefined;
  if (!cut) return (...head) => (...values) => (event === undefined ? { data: make(head, ...values) } : { event, data: make(head, ...values) });
  const all = framedPieces(cut.pieces, event);
  return (...head) => {
    // The head's values joined to the pieces around them (joined, not added to: see framedPieces), the
    // others' gaps kept, renumbered from 0.
    const parts: string[][] = [[all[0]!]];
    const order: number[] = [];
    for (let i = 0; i < cut.order.length; i++) {
      const slot = cut.order[i]!;
      if (slot < heads) parts[parts.length - 1]!.push(jsonOf(head[slot]!), all[i + 1]!);
      else {
        order.push(slot - heads);
        parts.push([all[i + 1]!]);
      }
    }
    return filler(parts.map((piece) => piece.join('')), order);
  };
}

/**
 * A template's JSON cut at its placeholders: the text between them, and which value goes in each gap, in the
 * order they appear (each placeholder's JSON begins with a quote and an escaped NUL, and the digit after it
 * says which it is); undefined unless each of the `slots` placeholders comes out exactly once.
 */
function cutAtPlaceholders(text: string, slots: number): { pieces: string[]; order: number[] } | undefined {
  const pieces: string[] = [];
  const order: number[] = [];
  let from = 0;
  for (let at = text.indexOf(MARK_START); at >= 0; at = text.indexOf(MARK_START, at + 1)) {
    const slot = text.charCodeAt(at + MARK_START.length) - 48;
    if (slot < 0 || slot >= slots || !text.startsWith(QUOTED_MARKS[slot]!, at)) continue;
    pieces.push(text.slice(from, at));
    order.push(slot);
    from = at + QUOTED_MARKS[slot]!.length;
    at = from - 1;
  }
  pieces.push(text.slice(from));
  return slots > 0 && order.length === slots && new Set(order).size === slots ? { pieces, order } : undefined;
}

/**
 * The pieces with the frame's lines around the JSON made part of the first and the last. Joined, not added
 * to: a string added to is a tree of its parts, which every event made from it would carry into the batch's
 * join.
 */
function framedPieces(pieces: readonly string[], event: string | undefined): string[] {
  const framed = [...pieces];
  framed[0] = [event === undefined ? '' : `event: ${event}\n`, 'data: ', framed[0]].join('');
  framed[framed.length - 1] = [framed[framed.length - 1], '\n\n'].join('');
  return framed;
}

/** Each event: the framed pieces with the values' JSON between them, `order` saying which value goes in each gap. */
function filler<Values extends Array<string | number>>(pieces: readonly string[], order: readonly number[]): (...values: Values) => SseEvent {
  return (...values) => {
    let framed = pieces[0]!;
    for (let i = 0; i < order.length; i++) framed += jsonOf(values[order[i]!]!) + pieces[i + 1]!;
    return { framed };
  };
}

/**
 * `JSON.stringify(value)` for a template's values, a token's text most often: a call of JSON.stringify costs
 * some 50 ns before it writes anything (V8 11), more than the rest of filling in an event, so a string that
 * needs no escape is quoted as it is, and a number written by `String`.
 */
function jsonOf(value: string | number): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  for (let i = 0; i < value.length; i++) if (escapedInJson(value.charCodeAt(i))) return JSON.stringify(value);
  return `"${value}"`;
}

/**
 * Characters of events made in one go when they are not paced: what one answer's stream holds in memory at
 * most beyond its text. Large enough for a short answer's whole stream in every protocol (a Responses stream
 * of 90 tokens is 23 kB: its deltas repeat the item's id and indexes), so that it goes out as one body.
 */
const BATCH_CHARACTERS = 64 * 1024;

/** What `readFrames` read: the frames of `count` events, whether the source has ended, or the event still to come. */
interface Frames {
  text: string;
  count: number;
  done: boolean;
  /** An asynchronous source's next event (an upstream's: each event a promise), not read yet. */
  pending?: Promise<IteratorResult<SseEvent>>;
}

/**
 * The frames of a source's next events: one when paced, otherwise as many as come at once, up to a batch (a
 * source made whole beforehand, the engine's answer, is read at once); it stops at an event that is not there
 * yet, which goes out alone when it comes.
 *
 * The frames are joined once at the end rather than added one by one: a string added to makes a tree of
 * pieces, and Node measures such a string's UTF-8 length (for Content-Length and for the socket) by walking
 * it character by character, a flat one at once.
 */
function readFrames(events: Iterator<SseEvent> | AsyncIterator<SseEvent>, paced: boolean): Frames {
  const frames: string[] = [];
  let length = 0;
  for (;;) {
    const next = events.next();
    if (next instanceof Promise) return { text: frames.join(''), count: frames.length, done: false, pending: next };
    if (next.done) return { text: frames.join(''), count: frames.length, done: true };
    const framed = frame(next.value);
    frames.push(framed);
    length += framed.length;
    if (paced || length >= BATCH_CHARACTERS) return { text: frames.join(''), count: frames.length, done: false };
  }
}

class EventStream extends Readable {
  #timer: NodeJS.Timeout | undefined;
  #sent = 0;
  #done = false;
  /** An event of an asynchronous source is on its way. */
  #waiting = false;

  /** `first`: frames already read from `events` (the first batch of a long answer), sent first. */
  constructor(
    private readonly events: Iterator<SseEvent> | AsyncIterator<SseEvent>,
    private readonly paceMs: number,
    private readonly log: FastifyBaseLogger,
    first?: Frames,
  ) {
    super();
    if (first) {
      this.#sent = first.count;
      this.push(first.text);
    }
  }

  override _read(): void {
    if (this.#timer !== undefined || this.#waiting) return;
    // The first event goes out at once; the others `paceMs` apart (GATEWAY_TOKEN_DELAY_MS), for frontends
    // that want to see text arrive.
    if (this.#sent === 0 || this.paceMs <= 0) this.#next();
    else this.#timer = setTimeout(() => this.#next(), this.paceMs);
  }

  #next(): void {
    this.#timer = undefined;
    const frames = readFrames(this.events, this.paceMs > 0);
    this.#sent += frames.count;
    if (frames.text !== '') this.push(frames.text);
    if (frames.done) {
      this.#done = true;
      this.push(null);
    } else if (frames.pending) {
      this.#await(frames.pending);
    }
  }

  #await(next: Promise<IteratorResult<SseEvent>>): void {
    this.#waiting = true;
    next.then(
      (result) => {
        this.#waiting = false;
        if (!this.destroyed) this.#push(result);
        else if (!result.done) void this.events.return?.();
      },
      (error: Error) => {
        this.#waiting = false;
        this.destroy(error);
      },
    );
  }

  #push(next: IteratorResult<SseEvent>): void {
    if (next.done) {
      this.#done = true;
      this.push(null);
      return;
    }
    this.#sent++;
    this.push(frame(next.value));
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    clearTimeout(this.#timer);
    if (!this.#done) {
      // An asynchronous source that is waiting for its next event ends when that wait does (its request
      // aborted by the route's signal); asking it to return now would only queue behind that wait.
      if (!this.#waiting) void this.events.return?.();
      this.log.info({ eventsSent: this.#sent }, 'event stream closed by the client before its end');
    }
    callback(error);
  }
}

/**
 * Sends `events` as a `text/event-stream` answer with status 200.
 *
 * @example
 * return sendEvents(reply, chunksOf(answer), { paceMs: 0 });
 */
export function sendEvents(reply: FastifyReply, events: Iterable<SseEvent> | AsyncIterable<SseEvent>, options: { paceMs?: number } = {}): FastifyReply {
  const paceMs = options.paceMs ?? 0;
  reply
    .code(200)
    .type('text/event-stream; charset=utf-8')
    .header('cache-control', 'no-cache')
    // Proxies such as nginx would otherwise hold events back until their buffer fills.
    .header('x-accel-buffering', 'no');
  if (Symbol.asyncIterator in events) return reply.send(new EventStream(events[Symbol.asyncIterator](), paceMs, reply.log));
  const iterator = events[Symbol.iterator]();
  if (paceMs > 0) return reply.send(new EventStream(iterator, paceMs, reply.log));
  // A source made whole beforehand and not paced goes out in batches; when it fits in the first (a short
  // answer, the usual one), it is sent as one body: the same bytes, with a Content-Length, and no stream to
  // make, pipe and end, which would cost a short answer more than writing its events.
  const first = readFrames(iterator, false);
  return reply.send(first.done ? first.text : new EventStream(iterator, 0, reply.log, first));
}
