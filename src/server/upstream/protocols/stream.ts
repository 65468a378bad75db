/**
 * The one loop that turns an upstream's events into the answer's steps as they arrive: each protocol only
 * says what one event means. Nothing is held back: the steps an event makes are yielded before the next
 * event is read, and the loop stops reading at the answer's end (which lets the upstream connection go).
 */
import type { AnswerEvent } from '../../domain/answer-events.ts';
import { cut } from './failures.ts';
import type { UpstreamEvent } from './types.ts';

export interface StreamReading {
  /** The upstream protocol's name, for errors. */
  readonly protocol: string;
  /** The event that ends an answer in this protocol, for the error when the stream stops before it. */
  readonly endEvent: string;
  /** The steps one upstream event makes: none, one or several; an `end` step is the last. */
  read(event: UpstreamEvent): Iterable<AnswerEvent>;
}

/**
 * The answer's steps from an upstream stream; a stream that stops before its end event throws `stream`
 * after the steps already made.
 */
export async function* answerSteps(events: AsyncIterable<UpstreamEvent>, reading: StreamReading): AsyncGenerator<AnswerEvent> {
  for await (const event of events) {
    for (const step of reading.read(event)) {
      yield step;
      if (step.type === 'end') return;
    }
  }
  throw cut(reading.protocol, reading.endEvent);
}

/**
 * Numbers for the tool calls of a stream, from 0 in the order they begin, whatever the upstream keys them
 * by (a chat delta's index, a Responses output index, an Anthropic content block index).
 */
export class CallNumbers<Key> {
  private readonly numbers = new Map<Key, number>();

  /** The number of the call keyed `key`, or undefined before it began. */
  of(key: Key): number | undefined {
    return this.numbers.get(key);
  }

  /** Numbers a new call. */
  begin(key: Key): number {
    const number = this.numbers.size;
    this.numbers.set(key, number);
    return number;
  }

  get count(): number {
    return this.numbers.size;
  }
}
