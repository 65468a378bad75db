/**
 * A Responses stream read event by event, by each event's `type`: text deltas, function calls (announced
 * by `response.output_item.added`, their arguments in `response.function_call_arguments.delta`), and the
 * end with the whole response (`response.completed` or `response.incomplete`, carrying the usage).
 * `response.failed` and `error` are the upstream's failure. Other events (created, in progress, content
 * parts, the `.done` repeats of what the deltas said, reasoning) add nothing to the answer.
 */
import type { AnswerEvent } from '../../../domain/answer-events.ts';
import { malformed, upstreamFailed } from '../failures.ts';
import { eventJson, isRecord, stringOf, type Json } from '../read.ts';
import { answerSteps, CallNumbers, type StreamReading } from '../stream.ts';
import type { UpstreamEvent } from '../types.ts';
import { PROTOCOL } from './name.ts';
import { failureOf, finishOf, usageOf } from './outcome.ts';

class ResponsesStream implements StreamReading {
  readonly protocol = PROTOCOL;
  readonly endEvent = '`response.completed` or `response.incomplete` event';
  /** Calls keyed by their item's output_index, which every function call event carries. */
  private readonly calls = new CallNumbers<number>();
  /** The calls whose arguments came in deltas (the others get theirs from the `.done` event). */
  private readonly streamed = new Set<number>();

  *read({ data }: UpstreamEvent): Iterable<AnswerEvent> {
    const event = eventJson(data, PROTOCOL);
    switch (event.type) {
      case 'response.output_text.delta':
      case 'response.refusal.delta': {
        const delta = stringOf(event.delta);
        if (delta) yield { type: 'text', text: delta };
        return;
      }
      case 'response.output_item.added':
      case 'response.output_item.done':
        if (isRecord(event.item) && event.item.type === 'function_call') yield* this.call(event, event.item);
        return;
      case 'response.function_call_arguments.delta': {
        const index = this.calls.of(this.outputIndex(event));
        if (index === undefined) throw malformed(PROTOCOL, 'function call arguments before the call was announced');
        const delta = stringOf(event.delta);
        this.streamed.add(index);
        if (delta) yield { type: 'tool-arguments', index, text: delta };
        return;
      }
      case 'response.completed':
      case 'response.incomplete': {
        if (!isRecord(event.response)) throw malformed(PROTOCOL, `a ${event.type} event without its response`);
        const finishReason = finishOf(event.response, this.calls.count > 0);
        yield { type: 'end', finishReason, stopSequence: null, ...usageOf(event.response) };
        return;
      }
      case 'response.failed':
        throw upstreamFailed(PROTOCOL, isRecord(event.response) ? failureOf(event.response) : 'the response failed');
      case 'error':
        throw upstreamFailed(PROTOCOL, stringOf(event.message) ?? stringOf(event.code) ?? 'an error event');
      default:
        return;
    }
  }

  private outputIndex(event: Json): number {
    if (typeof event.output_index !== 'number') throw malformed(PROTOCOL, `a ${String(event.type)} event without its output_index`);
    return event.output_index;
  }

  /**
   * A function call item: announced when added; its arguments are its deltas, or, from an upstream that
   * sends none, the whole arguments of the finished item.
   */
  private *call(event: Json, item: Json): Iterable<AnswerEvent> {
    const key = this.outputIndex(event);
    let index = this.calls.of(key);
    if (index === undefined) {
      const [id, name] = [stringOf(item.call_id), stringOf(item.name)];
      if (!id || !name) throw malformed(PROTOCOL, 'a function_call item without its call_id or name');
      index = this.calls.begin(key);
      yield { type: 'tool-call', index, id, name };
    }
    if (event.type !== 'response.output_item.done' || this.streamed.has(index)) return;
    this.streamed.add(index);
    const args = stringOf(item.arguments);
    if (args) yield { type: 'tool-arguments', index, text: args };
  }
}

/**
 * The answer's steps as the events arrive.
 *
 * @example
 * for await (const step of eventsFrom(readEvents(response.body!))) console.log(step);
 */
export function eventsFrom(events: AsyncIterable<UpstreamEvent>): AsyncGenerator<AnswerEvent> {
  return answerSteps(events, new ResponsesStream());
}
