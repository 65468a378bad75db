/**
 * An answer as it is made, step by step: what every client protocol's stream is written from, whoever makes
 * the answer — the reference's engine (whose whole answer is split into these steps), or an upstream model
 * whose stream is translated into them as it arrives. A non-streamed answer is the same steps collected.
 */
import type { ChatAnswer } from './chat.ts';

export type FinishReason = ChatAnswer['finishReason'];

export type AnswerEvent =
  /** A piece of the text. */
  | { type: 'text'; text: string }
  /** A tool call begins (calls are numbered from 0, in order). */
  | { type: 'tool-call'; index: number; id: string; name: string }
  /** A piece of a tool call's JSON arguments. */
  | { type: 'tool-arguments'; index: number; text: string }
  /** The answer ends: why, and what it cost. Always the last event. */
  | { type: 'end'; finishReason: FinishReason; stopSequence: string | null; promptTokens: number; completionTokens: number };

/**
 * An answer on its way to a client that asked for a stream: its steps, and the whole answer when it was made
 * before the first step is sent (the engine's), so that what it costs can be said in the answer's headers.
 * An upstream's answer is known only at its `end`.
 */
export interface AnswerStream {
  readonly answer?: ChatAnswer;
  /**
   * The prompt tokens, when they are known before the first step: the whole answer's, or the count a source
   * made because the caller asked for it (`StreamWants`).
   */
  readonly promptTokens?: number;
  readonly events: Iterable<AnswerEvent> | AsyncIterable<AnswerEvent>;
}

/**
 * A whole answer as a stream.
 *
 * @example
 *   const stream = streamOf(await engine.answerChat(request));
 */
export function streamOf(answer: ChatAnswer): AnswerStream {
  return { answer, promptTokens: answer.promptTokens, events: eventsOf(answer) };
}

/**
 * The steps of a whole answer: its text token by token, each tool call and its argument pieces, the end. Made
 * one at a time as they are read, so that a client that stops reading stops them being made (and a long
 * answer's steps never all exist at once). An iterator of its own rather than a generator: a generator's
 * resumption was paid on every token.
 *
 * @example
 *   for (const event of eventsOf(answer)) console.log(event.type);
 */
export function eventsOf(answer: ChatAnswer): IterableIterator<AnswerEvent> {
  return new AnswerSteps(answer);
}

class AnswerSteps implements IterableIterator<AnswerEvent> {
  #piece = 0;
  /** The tool call being read, whether its `tool-call` step was given, and its next argument piece. */
  #call = 0;
  #opened = false;
  #argument = 0;
  #ended = false;

  constructor(private readonly answer: ChatAnswer) {}

  next(): IteratorResult<AnswerEvent> {
    const answer = this.answer;
    if (this.#piece < answer.contentPieces.length) return { value: { type: 'text', text: answer.contentPieces[this.#piece++]! }, done: false };
    while (this.#call < answer.toolCalls.length) {
      const call = answer.toolCalls[this.#call]!;
      if (!this.#opened) {
        this.#opened = true;
        return { value: { type: 'tool-call', index: this.#call, id: call.id, name: call.name }, done: false };
      }
      if (this.#argument < call.argumentPieces.length) return { value: { type: 'tool-arguments', index: this.#call, text: call.argumentPieces[this.#argument++]! }, done: false };
      this.#call++;
      this.#opened = false;
      this.#argument = 0;
    }
    if (this.#ended) return { value: undefined, done: true };
    this.#ended = true;
    const end: AnswerEvent = { type: 'end', finishReason: answer.finishReason, stopSequence: answer.stopSequence, promptTokens: answer.promptTokens, completionTokens: answer.completionTokens };
    return { value: end, done: false };
  }

  [Symbol.iterator](): this {
    return this;
  }
}

/**
 * The whole answer the steps add up to (for a client that did not ask for a stream). The text is `null`
 * when there was none and the answer is tool calls.
 *
 * @example
 *   const answer = await collect(upstreamEvents);
 */
export async function collect(events: AsyncIterable<AnswerEvent> | Iterable<AnswerEvent>): Promise<ChatAnswer> {
  const pieces: string[] = [];
  const calls: Array<{ id: string; name: string; pieces: string[] }> = [];
  for await (const event of events) {
    if (event.type === 'text') pieces.push(event.text);
    else if (event.type === 'tool-call') calls[event.index] = { id: event.id, name: event.name, pieces: [] };
    else if (event.type === 'tool-arguments') calls[event.index]?.pieces.push(event.text);
    else {
      const toolCalls = calls.filter(Boolean).map((c) => ({ id: c.id, name: c.name, arguments: c.pieces.join(''), argumentPieces: c.pieces }));
      return {
        content: pieces.length === 0 && toolCalls.length > 0 ? null : pieces.join(''),
        contentPieces: pieces,
        toolCalls,
        finishReason: event.finishReason,
        stopSequence: event.stopSequence,
        promptTokens: event.promptTokens,
        completionTokens: event.completionTokens,
      };
    }
  }
  throw new Error('the answer ended without its end event');
}
