/**
 * A chat completion stream read chunk by chunk (data-only events, then `[DONE]`): the role chunk, content
 * deltas, tool call deltas keyed by `index` (the first of each call carries its id and name), the chunk
 * with `finish_reason`, the usage chunk (`choices: []`, asked for with `stream_options.include_usage`).
 */
import type { AnswerEvent } from '../../../domain/answer-events.ts';
import { malformed, upstreamFailed } from '../failures.ts';
import { eventJson, isRecord, stringOf, tokenCount, UNCOUNTED, type Json } from '../read.ts';
import { answerSteps, CallNumbers, type StreamReading } from '../stream.ts';
import type { UpstreamEvent } from '../types.ts';
import { finishOf } from './finish.ts';
import { PROTOCOL } from './name.ts';

class ChatStream implements StreamReading {
  readonly protocol = PROTOCOL;
  readonly endEvent = '`data: [DONE]`';
  private readonly calls = new CallNumbers<number>();
  private finishReason: unknown = undefined;
  private promptTokens = UNCOUNTED;
  private completionTokens = UNCOUNTED;

  *read({ data }: UpstreamEvent): Iterable<AnswerEvent> {
    // The usage chunk comes after the finish reason: the answer ends at [DONE], the stream's last event.
    if (data.trim() === '[DONE]') {
      if (this.finishReason === undefined) throw malformed(PROTOCOL, 'a stream that ended without a finish_reason');
      yield {
        type: 'end',
        finishReason: finishOf(this.finishReason, this.calls.count > 0),
        stopSequence: null,
        promptTokens: this.promptTokens,
        completionTokens: this.completionTokens,
      };
      return;
    }
    const chunk = eventJson(data, PROTOCOL);
    // OpenAI reports a failure after the stream began as a chunk holding `error` (its SDK throws on it).
    if (chunk.error !== undefined && chunk.error !== null) {
      const error = chunk.error;
      throw upstreamFailed(PROTOCOL, (isRecord(error) && stringOf(error.message)) || JSON.stringify(error));
    }
    if (isRecord(chunk.usage)) {
      this.promptTokens = tokenCount(chunk.usage.prompt_tokens);
      this.completionTokens = tokenCount(chunk.usage.completion_tokens);
    }
    const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
    for (const choice of choices) {
      // The gateway never asks for n > 1: the answer is choice 0.
      if (!isRecord(choice) || (choice.index ?? 0) !== 0) continue;
      if (isRecord(choice.delta)) yield* this.delta(choice.delta);
      if (typeof choice.finish_reason === 'string') this.finishReason = choice.finish_reason;
    }
  }

  private *delta(delta: Json): Iterable<AnswerEvent> {
    // A refusal is what the model said: its text is the answer's (as in a whole answer).
    for (const piece of [stringOf(delta.content), stringOf(delta.refusal)]) if (piece) yield { type: 'text', text: piece };
    if (!Array.isArray(delta.tool_calls)) return;
    for (const [position, call] of delta.tool_calls.entries()) {
      if (!isRecord(call)) throw malformed(PROTOCOL, 'a tool call delta that is not an object');
      const key = typeof call.index === 'number' ? call.index : position;
      const fn = isRecord(call.function) ? call.function : {};
      let index = this.calls.of(key);
      if (index === undefined) {
        const id = stringOf(call.id);
        const name = stringOf(fn.name);
        if (!id || !name) throw malformed(PROTOCOL, 'a tool call whose first delta has no id or function name');
        index = this.calls.begin(key);
        yield { type: 'tool-call', index, id, name };
      }
      const piece = stringOf(fn.arguments);
      if (piece) yield { type: 'tool-arguments', index, text: piece };
    }
  }
}

/**
 * The answer's steps as the chunks arrive.
 *
 * @example
 * for await (const step of eventsFrom(readEvents(response.body!))) console.log(step);
 */
export function eventsFrom(events: AsyncIterable<UpstreamEvent>): AsyncGenerator<AnswerEvent> {
  return answerSteps(events, new ChatStream());
}
