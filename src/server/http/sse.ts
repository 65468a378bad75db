/**
 * The one server-sent event writer. Events become a readable stream that the route sends through Fastify's
 * reply like any other body, so CORS, security headers, logging and response hooks apply to streams too.
 *
 * The stream is pulled, not pushed: the next event is made only when the socket has room for it, so a client
 * that reads slowly slows its own stream and nothing else, and memory stays bounded. When the client goes
 * away Fastify destroys the stream, and no further event is made for nobody.
 */
import { Readable } from 'node:stream';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';

/** One event: `data` is sent as JSON, or as it is when it is a string (`[DONE]`); `event` names it. */
export interface SseEvent {
  event?: string;
  data: unknown;
}

/** The frame of one event, as OpenAI and Anthropic send them: optional `event:` line, one `data:` line, blank line. */
export function frame(event: SseEvent): string {
  const data = typeof event.data === 'string' ? event.data : JSON.stringify(event.data);
  return `${event.event === undefined ? '' : `event: ${event.event}\n`}data: ${data}\n\n`;
}

class EventStream extends Readable {
  #timer: NodeJS.Timeout | undefined;
  #sent = 0;
  #done = false;
  /** An event of an asynchronous source is on its way. */
  #waiting = false;

  constructor(
    private readonly events: Iterator<SseEvent> | AsyncIterator<SseEvent>,
    private readonly paceMs: number,
    private readonly log: FastifyBaseLogger,
  ) {
    super();
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
    const next = this.events.next();
    // A source made whole beforehand (the engine's answer) is read at once; an upstream's events as they come.
    if (!(next instanceof Promise)) return this.#push(next);
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
  return reply
    .code(200)
    .type('text/event-stream; charset=utf-8')
    .header('cache-control', 'no-cache')
    // Proxies such as nginx would otherwise hold events back until their buffer fills.
    .header('x-accel-buffering', 'no')
    .send(new EventStream(Symbol.asyncIterator in events ? events[Symbol.asyncIterator]() : events[Symbol.iterator](), options.paceMs ?? 0, reply.log));
}
