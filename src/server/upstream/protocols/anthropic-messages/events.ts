/**
 * An Anthropic Messages stream read event by event: `message_start` (the input usage), each content block
 * (`content_block_start`, its deltas: `text_delta`, or `input_json_delta` for a `tool_use` block's input,
 * `content_block_stop`), `message_delta` (the stop reason and the output usage, cumulative), then
 * `message_stop`. `ping` keeps the connection alive, an `error` event is the upstream's failure, and other
 * events and blocks (thinking, server tools, event types added later) are passed over, as Anthropic asks
 * clients to do.
 */
import type { AnswerEvent } from '../../../domain/answer-events.ts';
import { malformed, upstreamFailed } from '../failures.ts';
import { eventJson, isRecord, stringOf, type Json } from '../read.ts';
import { answerSteps, CallNumbers, type StreamReading } from '../stream.ts';
import type { UpstreamEvent } from '../types.ts';
import { PROTOCOL } from './name.ts';
import { stopOf, Usage } from './outcome.ts';

class MessagesStream implements StreamReading {
  readonly protocol = PROTOCOL;
  readonly endEvent = '`message_stop` event';
  /** `tool_use` blocks keyed by their content block index. */
  private readonly calls = new CallNumbers<number>();
  private readonly usage = new Usage();
  private stop: ReturnType<typeof stopOf> | undefined;

  *read({ data }: UpstreamEvent): Iterable<AnswerEvent> {
    const event = eventJson(data, PROTOCOL);
    switch (event.type) {
      case 'message_start':
        if (isRecord(event.message)) this.usage.update(event.message.usage);
        return;
      case 'content_block_start':
        if (isRecord(event.content_block)) yield* this.blockStart(event, event.content_block);
        return;
      case 'content_block_delta':
        if (isRecord(event.delta)) yield* this.delta(event, event.delta);
        return;
      case 'message_delta':
        if (isRecord(event.delta)) this.stop = stopOf(event.delta.stop_reason, event.delta.stop_sequence);
        this.usage.update(event.usage);
        return;
      case 'message_stop':
        if (!this.stop) throw malformed(PROTOCOL, 'a message_stop before any stop_reason');
        yield { type: 'end', ...this.stop, ...this.usage.tokens };
        return;
      case 'error': {
        const error = isRecord(event.error) ? event.error : {};
        const words = [stringOf(error.type), stringOf(error.message)].filter(Boolean).join(': ');
        throw upstreamFailed(PROTOCOL, words || 'an error event');
      }
      default:
        return;
    }
  }

  private *blockStart(event: Json, block: Json): Iterable<AnswerEvent> {
    if (block.type === 'text') {
      // The start of a text block carries its text so far (empty in practice).
      const start = stringOf(block.text);
      if (start) yield { type: 'text', text: start };
    } else if (block.type === 'tool_use') {
      const [id, name] = [stringOf(block.id), stringOf(block.name)];
      if (!id || !name || typeof event.index !== 'number') throw malformed(PROTOCOL, 'a tool_use block without its index, id or name');
      yield { type: 'tool-call', index: this.calls.begin(event.index), id, name };
    }
  }

  private *delta(event: Json, delta: Json): Iterable<AnswerEvent> {
    if (delta.type === 'text_delta') {
      const piece = stringOf(delta.text);
      if (piece) yield { type: 'text', text: piece };
    } else if (delta.type === 'input_json_delta') {
      // Only a tool_use block's input is the client's call; a server tool's input deltas are passed over.
      const index = typeof event.index === 'number' ? this.calls.of(event.index) : undefined;
      const piece = stringOf(delta.partial_json);
      if (index !== undefined && piece) yield { type: 'tool-arguments', index, text: piece };
    }
  }
}

/**
 * The answer's steps as the events arrive.
 *
 * @example
 * for await (const step of eventsFrom(readEvents(response.body!))) console.log(step);
 */
export function eventsFrom(events: AsyncIterable<UpstreamEvent>): AsyncGenerator<AnswerEvent> {
  return answerSteps(events, new MessagesStream());
}
