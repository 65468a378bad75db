/**
 * o200k_base's pre-tokenizer for ASCII text, by hand. The tokenizer first cuts a text into chunks with a
 * regular expression of Unicode classes (below) and then encodes each chunk on its own; for ASCII text
 * the classes are simple, and scanning character codes is several times cheaper than running the
 * expression. Chunks repeat far more than words do (an id such as `Mo2u0T6aT2iChXr9khDGA-0000040002`
 * is new, its chunks `Mo`, `2`, `u`, `000`, `004` … are not), so `tokens.ts` remembers tokens per chunk.
 *
 *   [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(contraction)?   1
 *   [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(contraction)?   2
 *   \p{N}{1,3}                                                                                    3
 *    ?[^\s\p{L}\p{N}]+[\r\n/]*                                                                     4
 *   \s*[\r\n]+  |  \s+(?!\S)  |  \s+                                                               5, 6, 7
 *
 * where (contraction) is `'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE])`. The first alternative
 * that matches at a position wins. `test/engine-text/ascii-chunks.test.ts` compares this with the
 * expression itself on many random texts.
 */
import { isAsciiDigit as isDigit, isSpace } from './characters.ts';

function isUpper(code: number): boolean {
  return code >= 65 && code <= 90;
}

function isLower(code: number): boolean {
  return code >= 97 && code <= 122;
}

function isNewline(code: number): boolean {
  return code === 10 || code === 13;
}

/** `[^\s\p{L}\p{N}]`: punctuation, symbols and control characters other than whitespace. */
function isSymbol(code: number): boolean {
  return !isSpace(code) && !isUpper(code) && !isLower(code) && !isDigit(code);
}

/** `[^\r\n\p{L}\p{N}]`: what may come before the letters of alternatives 1 and 2. */
function isLetterPrefix(code: number): boolean {
  return !isNewline(code) && !isUpper(code) && !isLower(code) && !isDigit(code);
}

/** The end of an optional contraction (`'s`, `'ll`, …, any case) at `at`; `at` when there is none. */
function contractionEnd(text: string, at: number): number {
  if (text.charCodeAt(at) !== 39) return at;
  const a = text.charCodeAt(at + 1) | 0x20;
  if (a === 115 || a === 100 || a === 109 || a === 116) return at + 2; // s d m t
  const b = text.charCodeAt(at + 2) | 0x20;
  if ((a === 108 && b === 108) || (a === 118 && b === 101) || (a === 114 && b === 101)) return at + 3; // ll ve re
  return at;
}

/** Alternatives 1 and 2 from `start`, whose letters begin at `letters`: the chunk's end, or -1. */
function letterChunkEnd(text: string, letters: number): number {
  let upper = letters;
  while (upper < text.length && isUpper(text.charCodeAt(upper))) upper++;
  let lower = upper;
  while (lower < text.length && isLower(text.charCodeAt(lower))) lower++;
  if (lower > upper) return contractionEnd(text, lower); // 1: capitals, then at least one small letter
  if (upper > letters) return contractionEnd(text, upper); // 2: at least one capital
  return -1;
}

/** The end of the chunk that starts at `start` (< text.length). */
function chunkEnd(text: string, start: number): number {
  const code = text.charCodeAt(start);
  if (isUpper(code) || isLower(code)) return letterChunkEnd(text, start);
  if (isDigit(code)) {
    let end = start + 1;
    while (end < text.length && end < start + 3 && isDigit(text.charCodeAt(end))) end++;
    return end;
  }
  if (isLetterPrefix(code) && start + 1 < text.length) {
    const end = letterChunkEnd(text, start + 1);
    if (end >= 0) return end;
  }
  let symbols = -1;
  if (isSymbol(code)) symbols = start;
  else if (code === 32 && start + 1 < text.length && isSymbol(text.charCodeAt(start + 1))) symbols = start + 1;
  if (symbols >= 0) {
    let end = symbols;
    while (end < text.length && isSymbol(text.charCodeAt(end))) end++;
    while (end < text.length && (isNewline(text.charCodeAt(end)) || text.charCodeAt(end) === 47)) end++;
    return end;
  }
  // Whitespace.
  let end = start;
  let lastNewline = -1;
  while (end < text.length && isSpace(text.charCodeAt(end))) {
    if (isNewline(text.charCodeAt(end))) lastNewline = end;
    end++;
  }
  if (lastNewline >= 0) return lastNewline + 1; // 5
  if (end === text.length) return end; // 6, at the end of the text
  if (end - start >= 2) return end - 1; // 6: the last space goes with what follows
  return end; // 7
}

/**
 * Calls `visit` with each chunk of an ASCII text, in order, as o200k_base's expression cuts it.
 *
 * @example
 * const chunks: string[] = [];
 * forEachAsciiChunk("It's 2024-05!", (c) => chunks.push(c)); // ["It's", ' ', '202', '4', '-', '05', '!']
 */
export function forEachAsciiChunk(text: string, visit: (chunk: string) => void): void {
  let start = 0;
  while (start < text.length) {
    const end = chunkEnd(text, start);
    visit(start === 0 && end === text.length ? text : text.slice(start, end));
    start = end;
  }
}
