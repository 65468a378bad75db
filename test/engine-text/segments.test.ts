/**
 * The tokenizer is asked a segment or a word at a time, and remembers what it was told (see tokens.ts);
 * these tests hold the result to the tokenizer itself, run on whole texts, for texts of every shape.
 */
import { countTokens as libraryCount, encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { PHRASES } from '../../src/server/engine/text/phrases.ts';
import { Rng } from '../../src/server/engine/text/random.ts';
import { countTokens, limitTokens, textPieces, toPieces } from '../../src/server/engine/text/tokens.ts';
import { isSpace } from '../../src/server/engine/text/characters.ts';
import { QUESTIONS } from './requests.ts';

const PLAIN = { disallowedSpecial: new Set<string>() };

function direct(text: string) {
  const tokens = text === '' ? [] : encode(text, PLAIN);
  return { ...toPieces(tokens), count: tokens.length };
}

/** Characters that matter to the split pattern: spaces of every kind, marks, newlines, letters, digits, multi-byte text. */
const ALPHABET = [' ', ' ', ' ', '.', ',', '!', '?', ':', ';', '\n', '\r', '\t', '\u00a0', '\u3000', '/', "'", '"', '-', '(', ')',
  'a', 'b', 'x', 'The', 'word', 'B', 'I', '1', '23', '4567', 'é', 'ü', 'ß', '日本', '語', '🎌', '👍🏽', '🇨🇭', '\u0301', '<|endoftext|>', '\ud800', '\udc00', "'s", "'ll"];

function randomText(rng: Rng): string {
  let text = '';
  const length = rng.int(0, 30);
  for (let i = 0; i < length; i++) text += rng.pick(ALPHABET);
  return text;
}

const SENTENCES = Object.values(PHRASES).flatMap((bank) => [...bank.openers, ...bank.body, ...bank.closers]);

describe('segmented tokenization', () => {
  it('gives the counts and pieces of the whole text, for random texts, first and second time', () => {
    const rng = new Rng(2024);
    for (let i = 0; i < 3000; i++) {
      const text = randomText(rng);
      const expected = direct(text);
      for (let round = 0; round < 2; round++) {
        expect(countTokens(text), JSON.stringify(text)).toBe(libraryCount(text, PLAIN));
        expect(textPieces(text), JSON.stringify(text)).toEqual(expected);
      }
    }
  });

  it('gives the counts and pieces of whole answers built from the phrase bank', () => {
    const rng = new Rng(7);
    for (let i = 0; i < 500; i++) {
      const parts: string[] = [];
      for (let n = rng.int(1, 8); n > 0; n--) {
        const sentence = rng.pick(SENTENCES).replace(/\{\w+\}/g, () => rng.pick([...QUESTIONS, 'Zürich', 'x9Fq2/0', '日本', '']));
        parts.push(sentence);
      }
      const text = parts.join(rng.pick([' ', '\n', '\n\n', '  ', ' \n']));
      expect(textPieces(text), JSON.stringify(text)).toEqual(direct(text));
      expect(countTokens(text)).toBe(libraryCount(text, PLAIN));
    }
  });

  it('gives the tokens of words that end in digits, whether their stem is known or not', () => {
    const rng = new Rng(31);
    const stemChars = ['a', 'Z', 'q', '0', '7', '-', '_', '.', "'", '/', 'x', 'Y'];
    const stems = Array.from({ length: 40 }, () => {
      let stem = rng.pick(['', ' ', ' #', '(']);
      for (let n = rng.int(1, 24); n > 0; n--) stem += rng.pick(stemChars);
      return stem;
    });
    for (let i = 0; i < 2000; i++) {
      const word = `${rng.pick(stems)}${String(rng.int(0, 10 ** rng.int(1, 12)))}`;
      const text = `Ticket ${word}: and ${word.trim()}, again`;
      for (let round = 0; round < 2; round++) {
        expect(textPieces(text), JSON.stringify(text)).toEqual(direct(text));
        expect(countTokens(text), JSON.stringify(text)).toBe(libraryCount(text, PLAIN));
      }
    }
  });

  it('cuts exactly at max_tokens inside texts of every shape', () => {
    const rng = new Rng(99);
    for (let i = 0; i < 300; i++) {
      const text = `${randomText(rng)} ${rng.pick(SENTENCES)} ${randomText(rng)}`;
      const { pieces, ends, count } = direct(text);
      const limit = rng.int(0, count);
      const cut = limitTokens(text, limit);
      let kept = 0;
      while (kept < ends.length && (ends[kept] as number) <= limit) kept++;
      expect(cut.pieces).toEqual(limit >= count ? pieces : pieces.slice(0, kept));
      expect(cut.tokenCount).toBe(Math.min(limit, count));
      expect(cut.truncated).toBe(limit < count);
    }
  });
});

describe('isSpace', () => {
  it('agrees with \\s for every UTF-16 code unit', () => {
    for (let code = 0; code <= 0xffff; code++) {
      if (isSpace(code) !== /\s/.test(String.fromCharCode(code))) expect.fail(`code unit ${code.toString(16)}`);
    }
  });
});
