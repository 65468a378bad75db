/**
 * Stop sequences kept by the gateway, whatever the upstream does with them (decision D31). OpenAI's Responses
 * protocol has none; OpenAI's Chat Completions takes four at most and, when it stops at one, does not say
 * which; compatible servers may ignore them. So the gateway cuts the answer itself before the first stop
 * sequence it holds, says which one stopped it (Anthropic's `stop_sequence`), and lets go of the upstream's
 * stream there. An upstream that stopped by itself leaves nothing to find, and its own reason stands.
 *
 * A cut answer's completion tokens are counted by the gateway's tokenizer (the upstream's count includes
 * what was cut); a stream cut before its end never gets the upstream's usage, and both counts are the
 * gateway's then.
 */
import type { AnswerEvent } from '../domain/answer-events.ts';
import { cutAtStop, type ChatAnswer } from '../domain/chat.ts';
import { UNCOUNTED } from './protocols/index.ts';

/**
 * The answer cut before the earliest stop sequence in its text, with no tool call after it; the answer
 * itself when it holds none.
 *
 * @example
 * stopInAnswer(answer, ['\n\nHuman:']);
 */
export function stopInAnswer(answer: ChatAnswer, stops: readonly string[] | undefined): ChatAnswer {
  if (!stops?.length || answer.content === null || answer.stopSequence !== null) return answer;
  const cut = cutAtStop(answer.content, stops);
  if (cut.sequence === null) return answer;
  return {
    content: cut.text,
    contentPieces: piecesUpTo(answer.contentPieces, cut.text.length),
    toolCalls: [],
    finishReason: 'stop',
    stopSequence: cut.sequence,
    promptTokens: answer.promptTokens,
    completionTokens: UNCOUNTED,
  };
}

/**
 * The steps of a stream, cut before the earliest stop sequence in its text: the text up to it, then the
 * end, and the upstream's stream is let go of. Text that could be the beginning of a stop sequence is held
 * back until the next piece says whether it is: the last `longest - 1` characters, no more, so that a piece
 * goes out as soon as no stop sequence can begin in it.
 *
 * @example
 * for await (const step of stopInStream(steps, ['END'])) …
 */
export async function* stopInStream(steps: AsyncIterable<AnswerEvent>, stops: readonly string[] | undefined): AsyncGenerator<AnswerEvent> {
  const longest = Math.max(0, ...(stops ?? []).map((s) => s.length));
  if (longest === 0) return yield* steps;
  let held = '';
  for await (const step of steps) {
    if (step.type !== 'text') {
      if (held !== '') yield { type: 'text', text: held };
      held = '';
      yield step;
      continue;
    }
    const text = held + step.text;
    const cut = cutAtStop(text, stops);
    if (cut.sequence !== null) {
      if (cut.text !== '') yield { type: 'text', text: cut.text };
      yield { type: 'end', finishReason: 'stop', stopSequence: cut.sequence, promptTokens: UNCOUNTED, completionTokens: UNCOUNTED };
      return;
    }
    let at = Math.max(0, text.length - (longest - 1));
    // Never between the two halves of a surrogate pair: each piece must be text on its own.
    if (at > 0 && at < text.length && isLowSurrogate(text.charCodeAt(at))) at--;
    if (at > 0) yield { type: 'text', text: text.slice(0, at) };
    held = text.slice(at);
  }
  if (held !== '') yield { type: 'text', text: held };
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** The first `length` characters of the pieces, in the same pieces (the last one cut). */
function piecesUpTo(pieces: readonly string[], length: number): string[] {
  const kept: string[] = [];
  let left = length;
  for (const piece of pieces) {
    if (left <= 0) break;
    kept.push(piece.length <= left ? piece : piece.slice(0, left));
    left -= piece.length;
  }
  return kept;
}
