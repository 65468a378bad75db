/**
 * Token counts and token pieces from a real tokenizer (o200k_base, the encoding of the gpt-4o family), so
 * `usage` and `max_tokens` behave as they would upstream. The encoder (byte-pair.ts over o200k.ts's shared
 * vocabulary) gives the same tokens as gpt-tokenizer with one copy of the tables per process instead of one
 * per worker thread. It keeps a bounded cache of the chunks it has merged, which is what makes the sentences
 * answers are made of, and a conversation sent again on each turn, cheap to count again; a cache of whole
 * sentences above it would add a lookup and save nothing the chunks' cache does not.
 *
 * Long runs (decision D22): the tokenizer's merge step takes time quadratic in the length of one chunk of
 * text (a word, a run of punctuation or of spaces), so that one long word could hold a request for seconds. A
 * run of more than `LONG_RUN` characters without a change between space and non-space is therefore tokenized
 * in pieces of `LONG_RUN` characters, each on its own: the cost is linear in the text's length, and the
 * count of such a run can differ from the tokenizer's by a token or so per piece (a merge across a cut is
 * not made). Text without such a run, which is all ordinary prose and code, is tokenized exactly as before.
 */
import type { TextForm } from '../../chat.ts';
import { o200k } from './o200k.ts';

/** The longest run of space or of non-space characters the tokenizer is given whole. */
export const LONG_RUN = 256;

/**
 * The o200k_base tokens of a text. Text from callers is plain text: `<|endoftext|>` in a message is
 * characters, not a control token.
 *
 * @example
 * encodeText('Hello world'); // [13225, 2375]
 */
export function encodeText(text: string): number[] {
  if (text === '') return [];
  const { encoder } = o200k();
  const tokens: number[] = [];
  if (!hasLongRun(text)) encoder.encode(text, tokens);
  else for (const span of spansOf(text)) encoder.encode(span, tokens);
  return tokens;
}

/**
 * How many o200k_base tokens a text has.
 *
 * @example
 * countTokens('Hello world'); // 2
 */
export function countTokens(text: string): number {
  const { encoder } = o200k();
  if (!hasLongRun(text)) return encoder.count(text);
  let count = 0;
  for (const span of spansOf(text)) count += encoder.count(span);
  return count;
}

// What JavaScript's `\s` matches: the tokenizer's own split tells space from non-space the same way.
// Below U+00A0 only the space and the controls 9 to 13 are spaces: a letter costs two comparisons.
function isSpace(code: number): boolean {
  if (code < 0xa0) return code === 32 || (code >= 9 && code <= 13);
  return code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a)
    || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}

/**
 * Whether the text has a run of more than `LONG_RUN` space or non-space characters. Almost no text has one:
 * it is then tokenized whole, without `spansOf`'s generator.
 *
 * It reads a few characters per `LONG_RUN` of ordinary text rather than every one (every answer is checked,
 * and reading each character cost more than the rest of counting its tokens): a long run would hold the
 * `LONG_RUN + 1` characters that end at `end`, so they are read backwards from `end` until two differ in
 * kind; no long run holds both of those two, so the next one to look for ends `LONG_RUN + 1` characters
 * after the first of them.
 */
export function hasLongRun(text: string): boolean {
  let end = LONG_RUN; // the last character of the run looked for
  while (end < text.length) {
    const space = isSpace(text.charCodeAt(end));
    let at = end - 1;
    while (at >= end - LONG_RUN && isSpace(text.charCodeAt(at)) === space) at--;
    if (at < end - LONG_RUN) return true;
    end = at + LONG_RUN + 1;
  }
  return false;
}

/**
 * The text in the spans it is tokenized in, when it has a long run: the text between long runs, and each
 * long run in pieces of `LONG_RUN` characters (never cutting a character made of two UTF-16 units).
 */
function* spansOf(text: string): Generator<string> {
  let at = 0; // start of the text not yet given out
  let runStart = 0;
  let runSpace = false;
  const flush = function* (end: number): Generator<string> {
    // The run [runStart, end) is long: the text before it, then the run in pieces.
    if (runStart > at) yield text.slice(at, runStart);
    let from = runStart;
    while (from < end) {
      let to = Math.min(from + LONG_RUN, end);
      const last = text.charCodeAt(to - 1);
      if (to < end && last >= 0xd800 && last <= 0xdbff) to--;
      yield text.slice(from, to);
      from = to;
    }
    at = end;
  };
  for (let i = 0; i < text.length; i++) {
    const space = isSpace(text.charCodeAt(i));
    if (i > 0 && space !== runSpace) {
      if (i - runStart > LONG_RUN) yield* flush(i);
      runStart = i;
    }
    runSpace = space;
  }
  if (text.length - runStart > LONG_RUN) yield* flush(text.length);
  if (at < text.length) yield text.slice(at);
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
  const { vocabulary } = o200k();
  const pieces: string[] = [];
  const ends: number[] = [];
  // Bytes of a character not yet complete, carried over to the tokens that finish it (none most often: no
  // array is made for nothing).
  let pending = NO_BYTES;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (pending.length === 0) {
      const text = textOfToken(token);
      if (text !== undefined) {
        pieces.push(text);
        ends.push(i + 1);
        continue;
      }
    }
    const bytes = concat(pending, vocabulary.bytesOf(token));
    const cut = completeLength(bytes);
    pending = bytes.slice(cut);
    if (cut === 0) continue;
    pieces.push(utf8.decode(bytes.subarray(0, cut)));
    ends.push(i + 1);
  }
  return { pieces, ends };
}

const utf8 = new TextDecoder();
const NO_BYTES = new Uint8Array(0);
/**
 * The text of each token read so far that is whole characters (false: it is not); at most one per token.
 * Made as long as the vocabulary at once (1.6 MB a thread): an array filled in at scattered indices from
 * empty is kept as a dictionary by V8, and a lookup in it costs some forty nanoseconds, for every token of
 * every answer.
 */
let tokenTexts: (string | false | undefined)[] | undefined;

/** A token's text when its bytes are whole characters, undefined when it holds part of one. */
function textOfToken(token: number): string | undefined {
  tokenTexts ??= new Array<string | false | undefined>(o200k().vocabulary.size);
  let text = tokenTexts[token];
  if (text === undefined) {
    const bytes = o200k().vocabulary.bytesOf(token);
    const whole = bytes.length > 0 && (bytes[0]! & 0xc0) !== 0x80 && completeLength(bytes) === bytes.length;
    text = tokenTexts[token] = whole ? utf8.decode(bytes) : false;
  }
  return text === false ? undefined : text;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

/** The length of the longest prefix of UTF-8 bytes that does not end inside a character. */
function completeLength(bytes: Uint8Array): number {
  // A character is at most 4 bytes: look back at most 3 for the lead byte of the last one.
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte
    const needs = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needs > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

/** Text built from at most `limit` tokens, with its pieces and the number of tokens spent. */
export interface TokenText {
  text: string;
  /** One piece per token (see `toPieces`), or the whole text in one (`whole`); they concatenate to exactly `text`. */
  pieces: readonly string[];
  tokenCount: number;
  truncated: boolean;
}

/**
 * Tokenizes a text and keeps at most `limit` tokens of it (no limit when `limit` is null). When the cut falls
 * inside a character split over several tokens, that character is left out but its tokens still count, as
 * they were generated. The text, the count and the cut are the same in either form; only the pieces differ.
 *
 * @example
 * limitTokens('Hello brave new world', 2); // { text: 'Hello brave', pieces: ['Hello', ' brave'], tokenCount: 2, truncated: true }
 * limitTokens('Hello brave new world', null, 'whole'); // { text: 'Hello brave new world', pieces: ['Hello brave new world'], tokenCount: 4, truncated: false }
 */
export function limitTokens(text: string, limit: number | null, form: TextForm = 'pieces'): TokenText {
  if (form === 'whole') {
    // Counted first: a whole text within its limit (the usual answer: Anthropic's max_tokens is required, and
    // rarely reached) needs no array of its tokens, which costs more than the count. Only a text that is cut is
    // then encoded as well.
    const count = countTokens(text);
    if (limit === null || count <= limit) return { text, pieces: wholePieces(text), tokenCount: count, truncated: false };
  }
  const tokens = encodeText(text);
  const { pieces, ends } = toPieces(tokens);
  if (limit === null || tokens.length <= limit) return { text, pieces, tokenCount: tokens.length, truncated: false };
  let kept = 0;
  while (kept < ends.length && ends[kept]! <= limit) kept++;
  const keptPieces = pieces.slice(0, kept);
  const keptText = keptPieces.join('');
  return { text: keptText, pieces: form === 'whole' ? wholePieces(keptText) : keptPieces, tokenCount: limit, truncated: true };
}

/** A text as one piece: none when it is empty, as `toPieces` gives none for no tokens. */
function wholePieces(text: string): string[] {
  return text === '' ? [] : [text];
}
