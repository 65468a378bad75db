/**
 * A whole upstream answer, once read, as the gateway's `ChatAnswer`: the text as one piece (an upstream's
 * JSON answer has no token boundaries to keep), each call's arguments as one piece.
 */
import type { FinishReason } from '../../domain/answer-events.ts';
import type { ChatAnswer } from '../../domain/chat.ts';

export interface ReadAnswer {
  text: string;
  calls: Array<{ id: string; name: string; arguments: string }>;
  finishReason: FinishReason;
  stopSequence: string | null;
  /** UNCOUNTED (-1) when the upstream reported none. */
  promptTokens: number;
  completionTokens: number;
}

/**
 * The ChatAnswer of what was read. As in `collect()`, the content is null only for an answer that is tool
 * calls and no text.
 *
 * @example
 * chatAnswer({ text: 'Hi', calls: [], finishReason: 'stop', stopSequence: null, promptTokens: 9, completionTokens: 1 });
 */
export function chatAnswer(read: ReadAnswer): ChatAnswer {
  return {
    content: read.text === '' && read.calls.length > 0 ? null : read.text,
    contentPieces: read.text === '' ? [] : [read.text],
    toolCalls: read.calls.map((call) => ({ id: call.id, name: call.name, arguments: call.arguments, argumentPieces: call.arguments === '' ? [] : [call.arguments] })),
    finishReason: read.finishReason,
    stopSequence: read.stopSequence,
    promptTokens: read.promptTokens,
    completionTokens: read.completionTokens,
  };
}
