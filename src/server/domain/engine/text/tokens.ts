/**
 * Token counts and token pieces from a real tokenizer (o200k_base, the encoding of the gpt-4o family), so
 * `usage` and `max_tokens` behave as they would upstream. gpt-tokenizer keeps a bounded cache of the chunks
 * it has merged, which is what makes the sentences answers are made of, and a conversation sent again on
 * each turn, cheap to count again; a cache of whole sentences above it was measured slower
 * (`npx tsx scripts/bench/engine-text.ts`).
 *
 * Pieces are made with `decodeGenerator` over a whole, complete token list and never by decoding a single
 * token: gpt-tokenizer shares one streaming TextDecoder per module, so decoding a slice that ends inside a
 * UTF-8 character would leave bytes behind that turn up in the next, unrelated decode.
 */
import { countTokens as countWithLibrary, decodeGenerator, encode } from 'gpt-tokenizer/encoding/o200k_base';

// Text from callers is plain text: `<|endoftext|>` in a message is characters, not a control token.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * The o200k_base tokens of a text, special-token markers counted as ordinary characters.
 *
 * @example
 * encodeText('Hello world'); // [13225, 2375]
 */
export function encodeText(text: string): number[] {
  return text === '' ? [] : encode(text, PLAIN_TEXT);
}

/**
 * How many o200k_base tokens a text has.
 *
 * @example
 * countTokens('Hello world'); // 2
 */
export function countTokens(text: string): number {
  return text === '' ? 0 : countWithLibrary(text, PLAIN_TEXT);
}

/** A text cut into pieces; `ends[i]` is the number of tokens consumed once `pieces[i]` is complete. */
export interface TokenPieces {
  pieces: string[];
  ends: number[];
}

/**
 * Splits complete text tokens into non-empty string pieces, one per token, except that tokens which hold
 * only part of a character are grouped with the tokens that finish it.
 *
 * @example
 * toPieces(encodeText('Hi there')); // { pieces: ['Hi', ' there'], ends: [1, 2] }
 */
export function toPieces(tokens: readonly number[]): TokenPieces {
  const pieces: string[] = [];
  const ends: number[] = [];
  let consumed = 0;
  // The generator pulls tokens lazily, so the count at each yield is where that piece ends.
  function* counted(): Generator<number> {
    for (const token of tokens) {
      consumed++;
      yield token;
    }
  }
  for (const piece of decodeGenerator(counted())) {
    if (piece === '') continue;
    pieces.push(piece);
    ends.push(consumed);
  }
  return { pieces, ends };
}

/** Text built from at most `limit` tokens, with its pieces and the number of tokens spent. */
export interface TokenText {
  text: string;
  /** One piece per token (see `toPieces`), concatenating to exactly `text`. */
  pieces: readonly string[];
  tokenCount: number;
  truncated: boolean;
}

/**
 * Tokenizes a text and keeps at most `limit` tokens of it (no limit when `limit` is null). When the cut falls
 * inside a character split over several tokens, that character is left out but its tokens still count, as
 * they were generated.
 *
 * @example
 * limitTokens('Hello brave new world', 2); // { text: 'Hello brave', pieces: ['Hello', ' brave'], tokenCount: 2, truncated: true }
 */
export function limitTokens(text: string, limit: number | null): TokenText {
  const tokens = encodeText(text);
  const { pieces, ends } = toPieces(tokens);
  if (limit === null || tokens.length <= limit) return { text, pieces, tokenCount: tokens.length, truncated: false };
  let kept = 0;
  while (kept < ends.length && ends[kept]! <= limit) kept++;
  const keptPieces = pieces.slice(0, kept);
  return { text: keptPieces.join(''), pieces: keptPieces, tokenCount: limit, truncated: true };
}
