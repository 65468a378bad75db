/**
 * The tokenizer's own vocabulary (vocabulary.ts, byte-pair.ts, o200k.ts) against gpt-tokenizer as the oracle:
 * the same tokens, the same counts, the same pieces; and the text workers read the one copy the pool's
 * thread built.
 */
import { countTokens as libraryCount, decodeGenerator, encode as libraryEncode } from 'gpt-tokenizer/encoding/o200k_base';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, describe, expect, it } from 'vitest';
import { Rng } from '../../src/lib/random.ts';
import { o200k, shareO200k } from '../../src/server/domain/engine/text/o200k.ts';
import { countTokens, encodeText, LONG_RUN, toPieces } from '../../src/server/domain/engine/text/tokens.ts';
import { buildVocabulary, Vocabulary } from '../../src/server/domain/engine/text/vocabulary.ts';
import { WorkerPool } from '../../src/server/workers/pool.ts';

const PLAIN = { disallowedSpecial: new Set<string>() };

/** Texts of many kinds, none with a run longer than LONG_RUN (where the two would differ by design, D22). */
function corpus(): string[] {
  const texts = [
    'Hello world',
    "It's what they'd've said: DON'T, won't, I'm, you're, we'll.",
    'Grüße aus Zürich 🇨🇭! 日本語のテキスト, emoji 🎉👍🏽 👩‍👩‍👧 and plain ASCII.',
    'Ünïcödé ÆØÅ ΑΒΓ абв עברית العربية हिन्दी தமிழ் ไทย 한국어',
    'function f(x) {\n\treturn x ** 2; // square\n}\n\n\n    indented\r\n\r\nwindows',
    '<|endoftext|> <|fim_prefix|> are characters here',
    '12345678901234567890 3.14159 1e309 0x1F -42',
    '\u0000\u0001\u001f \u00a0\u2028\u3000 mixed spaces',
    '"quoted" (parens) [brackets] {braces} ... ??? !!! ---',
  ];
  const rng = new Rng(7);
  const alphabet = [' ', '\n', 'a', 'Z', 'é', 'ß', '日', '本', '🎉', '1', '.', "'", '\t', 'ж', '\u0301'];
  for (let i = 0; i < 300; i++) {
    let text = '';
    const length = rng.int(1, LONG_RUN);
    while (text.length < length) text += rng.pick(alphabet);
    texts.push(text);
  }
  return texts;
}

describe('the o200k vocabulary', () => {
  it('maps every token back to its rank, from tiktoken\'s own file', () => {
    const { vocabulary } = o200k();
    expect(vocabulary.size).toBe(199_998);
    for (let rank = 0; rank < vocabulary.size; rank++) {
      const bytes = vocabulary.bytesOf(rank);
      expect(bytes.length).toBeGreaterThan(0);
      if (vocabulary.rankOf(bytes, 0, bytes.length) !== rank) expect.fail(`rank ${rank} does not map back`);
    }
    expect(vocabulary.rankOf(new TextEncoder().encode('not-a-token-at-all'), 0, 18)).toBe(-1);
  });

  it('gives gpt-tokenizer\'s tokens, counts and pieces', () => {
    for (const text of corpus()) {
      const expected = libraryEncode(text, PLAIN);
      expect(encodeText(text), JSON.stringify(text)).toEqual(expected);
      expect(countTokens(text)).toBe(libraryCount(text, PLAIN));
      const library: string[] = [];
      for (const piece of decodeGenerator(expected)) if (piece !== '') library.push(piece);
      expect(toPieces(expected).pieces).toEqual(library);
    }
  });

  it('reads ranks out of order and refuses a malformed line', () => {
    const file = Buffer.from('Yg== 1\nYQ== 0\nYWI= 2\n'); // b, a, ab
    const vocabulary = new Vocabulary(buildVocabulary(file));
    expect(vocabulary.size).toBe(3);
    expect(Buffer.from(vocabulary.bytesOf(2)).toString()).toBe('ab');
    expect(vocabulary.rankOf(Buffer.from('b'), 0, 1)).toBe(1);
    expect(() => buildVocabulary(Buffer.from('YQ==\n'))).toThrow(/no rank/);
    expect(() => buildVocabulary(Buffer.from('YQ== x\n'))).toThrow(/bad rank/);
  });

  it('takes little memory to build: the file\'s bytes, not a string per token', () => {
    const path = createRequire(import.meta.url).resolve('gpt-tokenizer/data/o200k_base.tiktoken');
    const shared = buildVocabulary(readFileSync(path));
    const total = shared.bytes.byteLength + shared.offsets.byteLength + shared.slots.byteLength;
    expect(total).toBeLessThan(5 * 1024 * 1024);
  });
});

describe('text workers', () => {
  const pools: WorkerPool[] = [];
  afterAll(() => Promise.all(pools.map((pool) => pool.close())));

  it('read the vocabulary the pool\'s thread built, not a copy of their own', async () => {
    const shared = shareO200k();
    const pool = new WorkerPool('text', { workers: 2, queue: 8 }, () => ({ vocabulary: shared }));
    pools.push(pool);
    const count = (content: string) => pool.run<number>('countChatTokens', [{ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] }]);
    const word = ' Nordrhein'; // one token, and a word no answer template holds
    const { vocabulary } = o200k();
    const rank = vocabulary.rankOf(Buffer.from(word), 0, Buffer.byteLength(word));
    expect(rank).toBeGreaterThan(0);
    const before = await Promise.all([count('a'), count('b')]); // both workers started
    const bytes = vocabulary.bytesOf(rank);
    const saved = Uint8Array.from(bytes);
    try {
      bytes[bytes.length - 1] = 0x21; // ' Nordrheii' → '!': the token no longer matches ' Nordrhein'
      const changed = await Promise.all([count(`Hello${word}`), count(`Bye${word}`)]);
      // With a copy of its own, a worker would count 'Hello' and ' Nordrhein': one more token than 'a'.
      expect(changed[0]).toBeGreaterThan(before[0]! + 1);
      expect(changed[1]).toBeGreaterThan(before[1]! + 1);
    } finally {
      bytes.set(saved);
    }
  });
});
