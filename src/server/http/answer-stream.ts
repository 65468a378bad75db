/**
 * An answer's steps written as a client protocol's events, as they come. Each client protocol has one writer
 * (chat chunks, Anthropic's message events, the Responses API's events): what one step of the answer becomes.
 * This module drives it: a whole answer (the engine's) is written at once, without a promise per event;
 * an upstream's answer as its steps arrive, and a failure after the stream has begun ends the stream with the
 * protocol's error event, never a silent cut.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AnswerEvent, AnswerStream } from '../domain/answer-events.ts';
import { GatewayError } from '../domain/errors.ts';
import { statusOf } from './error-handler.ts';
import type { SseEvent } from './sse.ts';

export interface AnswerWriter {
  /** The client protocol's events for one step of the answer (the first step opens the stream). */
  write(step: AnswerEvent): SseEvent[];
  /** The events that end a stream that failed after it began: the protocol's error event. */
  fail(status: number, message: string): SseEvent[];
}

export interface WriteOptions {
  /** Done before the `end` step is written, for an answer known only at its end (a Responses answer is kept then). */
  beforeEnd?: (end: Extract<AnswerEvent, { type: 'end' }>) => Promise<void>;
  log: FastifyBaseLogger;
}

/**
 * The protocol's events of an answer.
 *
 * @example
 *   return sendEvents(reply, writeAnswer(stream, chatChunks(head, false), { log: reply.log }));
 */
export function writeAnswer(stream: AnswerStream, writer: AnswerWriter, options: WriteOptions): Iterable<SseEvent> | AsyncIterable<SseEvent> {
  const { events } = stream;
  if (Symbol.iterator in events && !options.beforeEnd) return new Written(events[Symbol.iterator](), writer);
  return writtenAsTheyCome(events, writer, options);
}

/**
 * A whole answer's events, read one by one as the event writer pulls them: each step read and written when
 * the events of the one before are all read. An iterator of its own rather than a generator, whose resumption
 * would be paid on every event.
 */
class Written implements IterableIterator<SseEvent> {
  #out: SseEvent[] = [];
  #at = 0;

  constructor(
    private readonly steps: Iterator<AnswerEvent>,
    private readonly writer: AnswerWriter,
  ) {}

  next(): IteratorResult<SseEvent> {
    while (this.#at === this.#out.length) {
      const step = this.steps.next();
      if (step.done) return { value: undefined, done: true };
      this.#out = this.writer.write(step.value);
      this.#at = 0;
    }
    return { value: this.#out[this.#at++]!, done: false };
  }

  [Symbol.iterator](): this {
    return this;
  }
}

async function* writtenAsTheyCome(events: Iterable<AnswerEvent> | AsyncIterable<AnswerEvent>, writer: AnswerWriter, options: WriteOptions): AsyncGenerator<SseEvent> {
  try {
    for await (const step of events) {
      if (step.type === 'end') await options.beforeEnd?.(step);
      yield* writer.write(step);
    }
  } catch (error) {
    if (error instanceof GatewayError) {
      yield* writer.fail(statusOf[error.kind], error.message);
      return;
    }
    options.log.error({ err: error }, 'unexpected fault in the middle of a stream');
    yield* writer.fail(500, 'Internal server error.');
  }
}
