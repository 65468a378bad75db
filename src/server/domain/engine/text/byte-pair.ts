/**
 * Byte-pair encoding over a shared Vocabulary (vocabulary.ts), the same algorithm as tiktoken and
 * gpt-tokenizer, so the tokens are the same: the text is split by the encoding's pattern into chunks; a chunk
 * that is a token is that token; any other chunk starts as its UTF-8 bytes and the adjacent pair of lowest
 * rank is merged, again and again, until no adjacent pair is a token.
 *
 * The merge step costs time quadratic in the length of a chunk; callers bound chunk lengths (tokens.ts,
 * decision D22). Chunks seen lately are kept in a bounded cache (a Map lookup of the chunk is cheaper than
 * encoding it to find it in the vocabulary): answers, and conversations sent again on each turn, repeat the
 * same words.
 */
import type { Vocabulary } from './vocabulary.ts';

/** No pair of that rank: larger than every rank. */
const NONE = 0x7fffffff;

export class BytePairEncoder {
  private readonly cache = new Map<string, number | readonly number[]>();
  private readonly textEncoder = new TextEncoder();
  private scratch = new Uint8Array(1024);
  /** Matches the chunk that begins exactly where the last one ended (`y`), with `test`: no match object. */
  private readonly sticky: RegExp;
  /** Where the next chunk of the text being encoded begins. */
  private at = 0;

  constructor(
    private readonly vocabulary: Vocabulary,
    /**
     * The encoding's pattern for chunks: Unicode-aware, none of its matches empty, and a chunk begins with any
     * character (o200k_base's does: every code point, lone surrogates too), so chunks follow one another.
     */
    split: RegExp,
    /** How many merged chunks the cache keeps. */
    private readonly cacheSize: number,
  ) {
    // A copy of its own, whose `lastIndex` nothing else moves. A text is read chunk by chunk with `test`
    // rather than `matchAll` or `exec`: those make a match object for every chunk (its array, index, input
    // and groups), some 13 KB of garbage for an answer of a hundred tokens, and `matchAll` copies the
    // expression on each call as well.
    this.sticky = new RegExp(split.source, `${split.flags.replace(/[gy]/g, '')}y`);
  }

  /** The chunk of `text` at `this.at`, or undefined at its end; `this.at` moves past it. */
  private nextChunk(text: string): string | undefined {
    const at = this.at;
    if (at >= text.length) return undefined;
    this.sticky.lastIndex = at;
    // Neither can happen with the pattern the constructor documents: a clear error rather than a wrong count.
    if (!this.sticky.test(text) || this.sticky.lastIndex === at) throw new Error(`the split pattern has no chunk at ${at}`);
    this.at = this.sticky.lastIndex;
    return text.slice(at, this.at);
  }

  /**
   * Appends the tokens of `text` to `out`.
   *
   * @example
   * encoder.encode('Hello world', tokens); // tokens: [13225, 2375]
   */
  encode(text: string, out: number[]): void {
    this.at = 0;
    for (let chunk = this.nextChunk(text); chunk !== undefined; chunk = this.nextChunk(text)) {
      const tokens = this.tokensOf(chunk);
      if (typeof tokens === 'number') out.push(tokens);
      else for (const token of tokens) out.push(token);
    }
  }

  /** How many tokens `text` has, without keeping them. */
  count(text: string): number {
    this.at = 0;
    let count = 0;
    for (let chunk = this.nextChunk(text); chunk !== undefined; chunk = this.nextChunk(text)) {
      const tokens = this.tokensOf(chunk);
      count += typeof tokens === 'number' ? 1 : tokens.length;
    }
    return count;
  }

  /** The token a chunk is, or the tokens it merges into. */
  private tokensOf(chunk: string): number | readonly number[] {
    const cached = this.cache.get(chunk);
    if (cached !== undefined) return cached;
    // At most three UTF-8 bytes per UTF-16 unit.
    if (this.scratch.length < 3 * chunk.length) this.scratch = new Uint8Array(3 * chunk.length);
    const length = this.textEncoder.encodeInto(chunk, this.scratch).written;
    const rank = this.vocabulary.rankOf(this.scratch, 0, length);
    const tokens = rank >= 0 ? rank : this.merge(this.scratch, length);
    // The oldest entry goes first: a hit does not move an entry, so that a hit costs one lookup.
    if (this.cache.size >= this.cacheSize) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(chunk, tokens);
    return tokens;
  }

  /** The tokens of `bytes[0, length)` by repeated merging of the lowest-ranked adjacent pair. */
  private merge(bytes: Uint8Array, length: number): number[] {
    // starts[i]: where part i begins (the last entry is the end); ranks[i]: the rank of parts i and i+1 joined.
    const starts: number[] = [];
    const ranks: number[] = [];
    const pairRank = (i: number): number => (i + 2 < starts.length ? this.rankOrNone(bytes, starts[i]!, starts[i + 2]!) : NONE);
    for (let i = 0; i <= length; i++) starts.push(i);
    for (let i = 0; i < length; i++) ranks.push(pairRank(i));
    while (starts.length > 2) {
      let lowest = NONE;
      let at = -1;
      for (let i = 0; i < ranks.length; i++) {
        if (ranks[i]! < lowest) {
          lowest = ranks[i]!;
          at = i;
        }
      }
      if (at === -1) break;
      starts.splice(at + 1, 1);
      ranks.splice(at + 1, 1);
      ranks[at] = pairRank(at);
      if (at > 0) ranks[at - 1] = pairRank(at - 1);
    }
    const tokens: number[] = [];
    for (let i = 0; i + 1 < starts.length; i++) {
      const rank = this.vocabulary.rankOf(bytes, starts[i]!, starts[i + 1]!);
      // Every single byte is a token, and merges only make tokens: this cannot happen with a byte-level vocabulary.
      if (rank < 0) throw new Error(`bytes ${starts[i]}..${starts[i + 1]} of a chunk are not a token`);
      tokens.push(rank);
    }
    return tokens;
  }

  private rankOrNone(bytes: Uint8Array, start: number, end: number): number {
    const rank = this.vocabulary.rankOf(bytes, start, end);
    return rank < 0 ? NONE : rank;
  }
}
