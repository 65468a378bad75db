import { decode, encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/lib/random.ts';
import { countTokens, encodeText, hasLongRun, limitTokens, LONG_RUN, toPieces } from '../../src/server/domain/engine/text/tokens.ts';

const MIXED = 'Grüße aus Zürich 🇨🇭! 日本語のテキスト, emoji 🎉👍🏽 and plain ASCII.';

describe('countTokens', () => {
  it('counts o200k_base tokens', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens('Hello world')).toBe(2);
    expect(countTokens(MIXED)).toBe(encode(MIXED).length);
  });

  it('treats special-token markers in caller text as plain characters', () => {
    expect(() => countTokens('a <|endoftext|> b')).not.toThrow();
    expect(countTokens('a <|endoftext|> b')).toBeGreaterThan(3);
    expect(encodeText('<|endoftext|>')).not.toContain(199999);
  });
});

describe('toPieces', () => {
  it('gives one piece per token for ASCII text', () => {
    const tokens = encodeText('The quick brown fox jumps over the lazy dog.');
    const { pieces, ends } = toPieces(tokens);
    expect(pieces).toHaveLength(tokens.length);
    expect(ends).toEqual(tokens.map((_, i) => i + 1));
  });

  it('groups tokens that split a character, so pieces are whole strings that concatenate byte-exactly', () => {
    const tokens = encodeText(MIXED);
    const { pieces, ends } = toPieces(tokens);
    expect(pieces.join('')).toBe(MIXED);
    expect(Buffer.from(pieces.join(''))).toEqual(Buffer.from(MIXED));
    expect(pieces.every((p) => p.length > 0 && !p.includes('\uFFFD'))).toBe(true);
    expect(pieces.length).toBeLessThan(tokens.length);
    expect(ends[ends.length - 1]).toBe(tokens.length);
  });

  it('keeps nothing from a list that ends inside a character for the next call', () => {
    const cut = encodeText('🎉').slice(0, 1); // one byte token of a four-byte character
    expect(toPieces(cut).pieces).toEqual([]);
    expect(toPieces(encodeText('abc')).pieces.join('')).toBe('abc');
    expect(decode(encodeText('abc'))).toBe('abc');
  });
});

describe('limitTokens', () => {
  it('keeps the whole text when it fits', () => {
    const result = limitTokens('Hello brave new world', null);
    expect(result).toMatchObject({ text: 'Hello brave new world', tokenCount: 4, truncated: false });
    expect(limitTokens('Hello brave new world', 4).truncated).toBe(false);
  });

  it('cuts to exactly the limit, as a prefix', () => {
    const text = 'One two three four five six seven eight nine ten.';
    for (let limit = 1; limit < countTokens(text); limit++) {
      const result = limitTokens(text, limit);
      expect(result.tokenCount).toBe(limit);
      expect(result.pieces).toHaveLength(limit);
      expect(countTokens(result.text)).toBe(limit);
      expect(text.startsWith(result.text)).toBe(true);
      expect(result.truncated).toBe(true);
    }
  });

  it('never emits half a character when the cut falls inside one', () => {
    const total = encodeText(MIXED).length;
    for (let limit = 1; limit < total; limit++) {
      const result = limitTokens(MIXED, limit);
      expect(MIXED.startsWith(result.text)).toBe(true);
      expect(result.text).not.toContain('\uFFFD');
      expect(result.tokenCount).toBe(limit);
    }
  });
});

describe('limitTokens, whole', () => {
  it('gives the same text, count and cut as in pieces, its pieces the text in one', () => {
    const long = `${'a'.repeat(3 * LONG_RUN)} ${MIXED}`;
    for (const text of ['', 'Hello brave new world', MIXED, long, 'One two three four five six seven eight nine ten.']) {
      const total = encodeText(text).length;
      for (const limit of [null, 0, 1, 2, 3, 7, total - 1, total, total + 1]) {
        if (limit !== null && limit < 0) continue;
        const pieces = limitTokens(text, limit, 'pieces');
        const whole = limitTokens(text, limit, 'whole');
        expect(whole, `${JSON.stringify(text.slice(0, 20))} to ${limit}`).toEqual({ ...pieces, pieces: pieces.text === '' ? [] : [pieces.text] });
      }
    }
  });
});

describe('hasLongRun', () => {
  /** Every character read: what the skipping scan must agree with. */
  function longRunByReading(text: string): boolean {
    let runStart = 0;
    for (let i = 1; i <= text.length; i++) {
      if (i === text.length || /\s/.test(text[i]!) !== /\s/.test(text[i - 1]!)) {
        if (i - runStart > LONG_RUN) return true;
        runStart = i;
      }
    }
    return false;
  }

  it('finds a run of LONG_RUN + 1 characters wherever it is, and never one of LONG_RUN', () => {
    for (const length of [LONG_RUN - 1, LONG_RUN, LONG_RUN + 1, LONG_RUN + 2]) {
      for (const kind of ['x', ' ', '\u3000']) {
        for (const before of [0, 1, 5, LONG_RUN, 3 * LONG_RUN + 7]) {
          // What comes before and after is short runs, the one next to the run of the other kind.
          const head = 'ab '.repeat(before).slice(0, before) + (kind === 'x' ? ' ' : '.');
          const text = head + kind.repeat(length) + (kind === 'x' ? ' ab' : 'ab ').repeat(40);
          expect(hasLongRun(text), `${length} × ${JSON.stringify(kind)} after ${before}`).toBe(length > LONG_RUN);
          expect(hasLongRun(text.slice(0, head.length + length)), 'at the end').toBe(length > LONG_RUN);
        }
      }
    }
  });

  it('agrees with reading every character on random texts of runs near the limit', () => {
    const rng = new Rng(30);
    for (let n = 0; n < 400; n++) {
      let text = '';
      while (text.length < 2000) {
        const length = rng.chance(0.2) ? rng.int(LONG_RUN - 3, LONG_RUN + 3) : rng.int(1, 40);
        text += (rng.chance(0.5) ? ' \t\n' : 'a.é🎉')[rng.int(0, 2)]!.repeat(length);
      }
      expect(hasLongRun(text)).toBe(longRunByReading(text));
    }
  });
});
