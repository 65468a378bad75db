/**
 * Token counts and token pieces from a real tokenizer (o200k_base, the encoding of the gpt-4o family), so
 * `usage` and `max_tokens` behave as they would upstream.
 *
 * Pieces are made with `decodeGenerator` over a whole, complete token list and never by decoding a single
 * token, except in pure ASCII text: gpt-tokenizer shares one streaming TextDecoder per module, so decoding
 * a slice that ends inside a UTF-8 character would leave bytes behind that turn up in the next, unrelated
 * decode. A token of ASCII text is whole characters, so it cannot end inside one.
 */
import { countTokens as countWithLibrary, decode, decodeGenerator, encode } from 'gpt-tokenizer/encoding/o200k_base';
import { forEachAsciiChunk } from './ascii-chunks.ts';
import { Generations } from './generations.ts';
import { isAscii, isAsciiAlphanumeric, isAsciiDigit, isSpace } from './characters.ts';

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

/**
 * Texts are tokenized a segment at a time, and each segment's tokens are remembered: answers are made of
 * the same few hundred sentences, so after a few requests most of an answer is already known. A text is
 * cut into sentence-like segments first (before a space that follows `.` `,` `!` `?` `:` `;`); a segment
 * seen before costs one lookup. A new one is cut again into words (before every space that follows a
 * character other than whitespace), so that in a sentence with a new word in it (a name, an id echoed
 * from the caller) only that word is tokenized. A segment is remembered whole only when all its words
 * were known: a segment with a new word in it is most likely never seen again.
 *
 * Why this gives exactly the tokens of the whole text: no chunk of o200k_base's split pattern runs across
 * a space that follows a character other than whitespace. A chunk only holds a space as its first
 * character or inside a run of whitespace (`\s+`, `\s*[\r\n]+`); a chunk that ends in punctuation takes
 * only `\r`, `\n` or `/` after it, and one of letters or digits ends before the space. The pattern has no
 * look-behind, so the chunks after the space are the same whether the text before it is there or not;
 * its one look-ahead (`\s+(?!\S)`) only matters for a text that ends in whitespace, which a segment before
 * such a space never does. Every chunk is encoded on its own, so the tokens of the text are the tokens
 * of its segments one after the other; a segment boundary is a character boundary, so its pieces are
 * too. `test/engine-text/tokens.test.ts` checks this against the tokenizer on whole texts.
 */

/** Segments longer than this are tokenized without being remembered (they are rarely seen twice). */
const MAX_SEGMENT_CHARS = 400;
/**
 * Segments and words remembered per generation (two are kept: a few MB). A word used again stays; an id
 * echoed from one request is forgotten within two generations.
 */
const SEGMENTS_PER_GENERATION = 4096;

/**
 * The token count of each segment and word met recently. Every answer and prompt is counted, so this is
 * the table looked up most, and its values are small integers: a lookup reads no other object.
 */
const counts = new Generations<string, number>(SEGMENTS_PER_GENERATION);

/** A segment or word cut into token pieces; `ends[i]` is the number of tokens once `pieces[i]` is complete. */
interface Pieces {
  count: number;
  pieces: readonly string[];
  ends: readonly number[];
}

/** The pieces of each segment and word met recently in a streamed answer (only streaming needs them). */
const pieceCache = new Generations<string, Pieces>(SEGMENTS_PER_GENERATION);

function rememberCount(text: string, count: number): number {
  if (text.length <= MAX_SEGMENT_CHARS) counts.set(text, count);
  return count;
}

function rememberPieces(text: string, pieces: Pieces): Pieces {
  if (text.length <= MAX_SEGMENT_CHARS) pieceCache.set(text, pieces);
  return pieces;
}

/** `.` `,` `!` `?` `:` `;`: a space after one of these starts a new segment. */
function isMark(code: number): boolean {
  return code === 46 || code === 44 || code === 33 || code === 63 || code === 58 || code === 59;
}

/** Calls `visit` with each segment of a non-empty text, in order: cut before a space after a mark. */
function forEachSegment(text: string, visit: (segment: string) => void): void {
  let start = 0;
  for (let i = 1; i < text.length; i++) {
    if (text.charCodeAt(i) === 32 && isMark(text.charCodeAt(i - 1))) {
      visit(text.slice(start, i));
      start = i;
    }
  }
  visit(start === 0 ? text : text.slice(start));
}

/**
 * Visits `text.slice(start, end)`, with a final run of marks on its own when a letter or digit comes
 * before it (`' moon.'` as `' moon'` and `'.'`): the word then shares its tokens with the same word
 * without the mark. A chunk of letters or digits ends before punctuation, and the marks end the word.
 */
function visitWord(text: string, start: number, end: number, visit: (word: string) => void): void {
  let marks = end;
  while (marks > start && isMark(text.charCodeAt(marks - 1))) marks--;
  if (marks < end && marks > start && isAsciiAlphanumeric(text.charCodeAt(marks - 1))) {
    visit(text.slice(start, marks));
    visit(text.slice(marks, end));
  } else visit(start === 0 && end === text.length ? text : text.slice(start, end));
}

/** Calls `visit` with each word of a non-empty segment, in order: cut before a space after a non-space. */
function forEachWord(text: string, visit: (word: string) => void): void {
  let start = 0;
  for (let i = 1; i < text.length; i++) {
    if (text.charCodeAt(i) === 32 && !isSpace(text.charCodeAt(i - 1))) {
      visitWord(text, start, i, visit);
      start = i;
    }
  }
  visitWord(text, start, text.length, visit);
}

/**
 * The text of each ASCII token met so far: a token of ASCII text decodes alone (see the top of this file).
 * At most one entry per token of the vocabulary's ASCII part.
 */
const asciiTokenTexts = new Map<number, string>();

function asciiTokenText(token: number): string {
  let text = asciiTokenTexts.get(token);
  if (text === undefined) {
    text = decode([token]);
    asciiTokenTexts.set(token, text);
  }
  return text;
}

/** The tokens of each ASCII chunk met recently (see ascii-chunks.ts). */
const chunkTokens = new Generations<string, readonly number[]>(SEGMENTS_PER_GENERATION);

/** `encodeText(text)` for an ASCII text: cut into o200k_base's chunks by hand, each chunk encoded once. */
function encodeAscii(text: string): number[] {
  const tokens: number[] = [];
  forEachAsciiChunk(text, (chunk) => {
    let known = chunkTokens.get(chunk);
    if (known === undefined) {
      known = encodeText(chunk);
      if (chunk.length <= MAX_SEGMENT_CHARS) chunkTokens.set(chunk, known);
    }
    for (let i = 0; i < known.length; i++) tokens.push(known[i] as number);
  });
  return tokens;
}

/**
 * Where the final run of ASCII digits of an ASCII word starts, when neither a digit nor whitespace comes
 * before it (`' ticket-0042'` → 8); -1 when the word does not end so. No o200k_base chunk holds a digit
 * and the character before it unless that is a digit too (digits make chunks of their own, `\p{N}{1,3}`,
 * counted from the first digit), so the tokens of such a word are those of its stem, then those of its
 * digits. Whitespace is left out because the pattern's look-ahead (`\s+(?!\S)`) cuts a run of it
 * differently at the end of a text than before a digit.
 */
function digitTailStart(word: string): number {
  let start = word.length;
  while (start > 0 && isAsciiDigit(word.charCodeAt(start - 1))) start--;
  return start > 0 && start < word.length && !isSpace(word.charCodeAt(start - 1)) ? start : -1;
}

/**
 * `toPieces(encodeText(word))`, cheaper for an ASCII word: its chunks and the text of its tokens are
 * remembered, and a new word that ends in digits (an id with a counter, a name with a number) is made of
 * its stem, remembered as a word of its own, and its digits: the next id of the same kind costs one lookup
 * for the stem.
 */
function wordPieces(word: string): Pieces {
  if (!isAscii(word)) {
    const tokens = encodeText(word);
    return { count: tokens.length, ...toPieces(tokens) };
  }
  const tail = digitTailStart(word);
  if (tail > 0) {
    const stem = word.slice(0, tail);
    const known = pieceCache.get(stem) ?? rememberPieces(stem, wordPieces(stem));
    const pieces = known.pieces.slice();
    const ends = known.ends.slice();
    const digits = encodeAscii(word.slice(tail));
    for (let i = 0; i < digits.length; i++) {
      pieces.push(asciiTokenText(digits[i] as number));
      ends.push(known.count + i + 1);
    }
    return { count: known.count + digits.length, pieces, ends };
  }
  const tokens = encodeAscii(word);
  const pieces: string[] = [];
  const ends: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    pieces.push(asciiTokenText(tokens[i] as number));
    ends.push(i + 1);
  }
  return { count: tokens.length, pieces, ends };
}

/** `wordPieces(word).count`, without the pieces: the same stem and digits, counted. */
function wordCount(word: string): number {
  if (!isAscii(word)) return countWithLibrary(word, PLAIN_TEXT);
  const tail = digitTailStart(word);
  if (tail > 0) {
    const stem = word.slice(0, tail);
    const stemCount = counts.get(stem) ?? rememberCount(stem, wordCount(stem));
    return stemCount + encodeAscii(word.slice(tail)).length;
  }
  return encodeAscii(word).length;
}

function countSegment(text: string): number {
  const known = counts.get(text);
  if (known !== undefined) return known;
  let count = 0;
  let allKnown = true;
  forEachWord(text, (word) => {
    const knownWord = counts.get(word);
    if (knownWord !== undefined) count += knownWord;
    else {
      allKnown = false;
      count += rememberCount(word, wordCount(word));
    }
  });
  if (allKnown) rememberCount(text, count);
  return count;
}

/** Appends pieces to `out`, their ends shifted by `offset`. */
function append(known: Pieces, out: TokenPieces, offset: number): void {
  const { pieces, ends } = known;
  for (let i = 0; i < pieces.length; i++) {
    out.pieces.push(pieces[i] as string);
    out.ends.push(offset + (ends[i] as number));
  }
}

/** Appends the pieces of a word to `out`, its ends shifted by `offset`; returns its token count. */
function appendWord(word: string, out: TokenPieces, offset: number): { count: number; known: boolean } {
  let known = pieceCache.get(word);
  const wasKnown = known !== undefined;
  known ??= rememberPieces(word, wordPieces(word));
  append(known, out, offset);
  return { count: known.count, known: wasKnown };
}

/** Appends the pieces of a segment to `out`, its ends shifted by `offset`; returns its token count. */
function appendSegment(text: string, out: TokenPieces, offset: number): number {
  const known = pieceCache.get(text);
  if (known !== undefined) {
    append(known, out, offset);
    return known.count;
  }
  const first = out.pieces.length;
  let count = 0;
  let allKnown = true;
  forEachWord(text, (word) => {
    const added = appendWord(word, out, offset + count);
    count += added.count;
    allKnown &&= added.known;
  });
  if (allKnown) {
    const ends = out.ends.slice(first);
    for (let i = 0; i < ends.length; i++) ends[i] = (ends[i] as number) - offset;
    rememberPieces(text, { count, pieces: out.pieces.slice(first), ends });
  }
  return count;
}

/**
 * How many o200k_base tokens a text has.
 *
 * @example
 * countTokens('Hello world'); // 2
 */
export function countTokens(text: string): number {
  if (text === '') return 0;
  let total = 0;
  forEachSegment(text, (segment) => {
    total += countSegment(segment);
  });
  return total;
}

/**
 * The pieces of a whole text, as `toPieces(encodeText(text))` gives them, from the remembered segments.
 *
 * @example
 * textPieces('Hi there'); // { pieces: ['Hi', ' there'], ends: [1, 2], count: 2 }
 */
export function textPieces(text: string): TokenPieces & { count: number } {
  const out: TokenPieces = { pieces: [], ends: [] };
  let count = 0;
  if (text !== '') {
    forEachSegment(text, (segment) => {
      count += appendSegment(segment, out, count);
    });
  }
  return { pieces: out.pieces, ends: out.ends, count };
}

/** Text built from at most `limit` tokens, with its pieces and the number of tokens spent. */
export interface TokenText {
  text: string;
  /**
   * Made when first read when the text was not cut (see `limitTokens`), then kept; frozen, since a
   * remembered answer shares them with every reader.
   */
  readonly pieces: readonly string[];
  tokenCount: number;
  truncated: boolean;
}

/**
 * Tokenizes a text (by its remembered segments) and keeps at most `limit` tokens of it (no limit when `limit` is null).
 * When the cut falls inside a character split over several tokens, that character is left out but its
 * tokens still count, as they were generated.
 *
 * A text that is not cut is only counted here, and its pieces are made when they are first read: only a
 * streamed answer needs them, and copying a piece per token into new arrays costs about as much as the
 * count itself. They are the same pieces either way, made from the same remembered segments.
 *
 * @example
 * limitTokens('Hello brave new world', 2); // { text: 'Hello brave', pieces: ['Hello', ' brave'], tokenCount: 2, truncated: true }
 */
export function limitTokens(text: string, limit: number | null): TokenText {
  const tokenCount = countTokens(text);
  if (limit === null || tokenCount <= limit) return new WholeText(text, tokenCount);
  const { pieces, ends } = textPieces(text);
  let kept = 0;
  while (kept < ends.length && (ends[kept] as number) <= limit) kept++;
  const keptPieces = pieces.slice(0, kept);
  return { text: keptPieces.join(''), pieces: Object.freeze(keptPieces), tokenCount: limit, truncated: true };
}

/**
 * A whole text and its count, with its pieces made on first reading. A class, not an object literal with
 * a getter: V8 builds such a literal through its runtime, a few microseconds on every answer.
 */
class WholeText implements TokenText {
  readonly truncated = false;
  #pieces: readonly string[] | undefined;

  constructor(
    readonly text: string,
    readonly tokenCount: number,
  ) {}

  get pieces(): readonly string[] {
    this.#pieces ??= Object.freeze(textPieces(this.text).pieces);
    return this.#pieces;
  }
}

