import { decode, encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { countTokens, encodeText, limitTokens, toPieces } from '../../src/server/domain/engine/text/tokens.ts';

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
