/**
 * What a chat text answer and a prompt continuation share: the finish reason and token counts of a text cut
 * by `limitTokens`, and its pieces, made when first read (only a stream needs them).
 */
import type { TokenText } from './tokens.ts';

/**
 * A class with a getter in its subclasses, not an object literal with one: V8 builds such a literal through
 * its runtime, a few microseconds on every answer.
 */
export abstract class AnswerText {
  readonly finishReason: 'stop' | 'length';
  readonly completionTokens: number;
  readonly #text: TokenText;

  constructor(
    text: TokenText,
    readonly promptTokens: number,
  ) {
    this.finishReason = text.truncated ? 'length' : 'stop';
    this.completionTokens = text.tokenCount;
    this.#text = text;
  }

  /** The text's pieces, one per token, made on first reading (see `limitTokens`). */
  protected tokenPieces(): readonly string[] {
    return this.#text.pieces;
  }
}
