import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/server/engine/text/random.ts';
import { analyseSubject, forEachWord, numbersIn, OPENING_WORDS, PATTERNS, POLITE_REQUEST, sentencesOf, withoutFinalMarks } from '../../src/server/engine/text/subject.ts';

describe('analyseSubject', () => {
  it.each([
    ['What is the capital of France?', 'about', 'the capital of France'],
    ['How do I reset my password?', 'howto', 'reset your password'],
    ['how to bake bread', 'howto', 'bake bread'],
    ['Why is the sky blue?', 'why', 'is the sky blue'],
    ['Write me a poem about cats', 'write', 'a poem about cats'],
    ['Tell me a story about dragons', 'write', 'a story about dragons'],
    ['Can you explain recursion to me?', 'about', 'recursion'],
    ['Could you please fix my code', 'request', 'fix your code'],
    ['List the planets of the solar system', 'list', 'the planets of the solar system'],
    ['Is coffee bad for you?', 'yesno', 'coffee bad for you'],
    ['Hi! What is a black hole?', 'about', 'a black hole'],
    ['Hello', 'greeting', ''],
    ['hey, how are you?', 'greeting', ''],
    ['Thank you so much!', 'thanks', ''],
    ['', 'empty', ''],
    ['I like trains.', 'statement', ''],
  ])('%s → %s "%s"', (text, intent, phrase) => {
    expect(analyseSubject(text)).toMatchObject({ intent, phrase });
  });

  it('keeps names and places first among the keywords, and collects numbers', () => {
    const subject = analyseSubject('Book a table for 4 people in Paris near the Louvre at 19.30');
    expect(subject.properNouns).toEqual(['Paris', 'Louvre']);
    expect(subject.keywords.slice(0, 2)).toEqual(['Paris', 'Louvre']);
    expect(subject.keywords).toContain('table');
    expect(subject.numbers).toEqual([4, 19.3]);
  });

  it('joins consecutive capitalised words into one name, and keeps numbers out of the keywords', () => {
    const subject = analyseSubject('Who was Ada Lovelace, and did she meet Charles Babbage in 1833 in the UK?');
    expect(subject.properNouns).toEqual(['Ada Lovelace', 'Charles Babbage', 'UK']);
    expect(subject.keywords).not.toContain('1833');
    expect(subject.numbers).toEqual([1833]);
  });

  it('shortens long subjects without leaving a dangling word', () => {
    const { phrase } = analyseSubject('What is the history of the long and complicated relationship between the kingdoms of England and Scotland?');
    expect(phrase.split(' ').length).toBeLessThanOrEqual(9);
    expect(phrase).not.toMatch(/\b(of|the|and|between)$/);
  });
});

describe('the shortcuts of analyseSubject', () => {
  it('knows every word that opens one of the intent patterns', () => {
    for (const pattern of [POLITE_REQUEST, ...PATTERNS.map(([regex]) => regex)]) {
      const head = /^\^(?:\(\?:([^)]*)\)|([a-z]+) )/.exec(pattern.source);
      expect(head, pattern.source).not.toBeNull();
      const alternatives = head?.[1]?.split('|') ?? [head?.[2] ?? ''];
      for (const alternative of alternatives) {
        const word = /^[a-z[\]]+/.exec(alternative)?.[0] ?? '';
        const spellings = word.includes('[sz]') ? [word.replace('[sz]', 's'), word.replace('[sz]', 'z')] : [word];
        for (const spelling of spellings) expect(OPENING_WORDS.has(spelling), `${spelling} in ${pattern.source}`).toBe(true);
      }
    }
  });

  it('collapses whitespace exactly as replace(/\\s+/g, " ").trim() does', () => {
    const rng = new Rng(5);
    const alphabet = ['a', 'B', ' ', ' ', '\n', '\t', '\u00a0', '\u2003', '\u3000', '\ufeff', '.', '?', 'é', '1'];
    for (let i = 0; i < 2000; i++) {
      let text = '';
      for (let n = rng.int(0, 12); n > 0; n--) text += rng.pick(alphabet);
      expect(analyseSubject(text).text, JSON.stringify(text)).toBe(text.replace(/\s+/g, ' ').trim());
    }
  });

  it('takes a capital after a sentence end for grammar, elsewhere for a name', () => {
    // "Ada" opens a sentence, so only "Lovelace" reads as a name.
    expect(analyseSubject('Paris is nice. Rome too! Ada Lovelace met Alan Turing? No.').properNouns).toEqual(['Lovelace', 'Alan Turing']);
    expect(analyseSubject('We met Ana. Then Bob and Carl Sagan.').properNouns).toEqual(['Ana', 'Bob', 'Carl Sagan']);
    expect(analyseSubject('I  saw  (Tom) and "Jane" in New York').properNouns).toEqual(['Tom', 'Jane', 'New York']);
    expect(analyseSubject('x?Y z.W  Q').properNouns).toEqual([]);
  });

  describe('scanners written by hand, against the expressions they replace', () => {
    const alphabet = ['a', 'Z', 'q', '7', '0', "'", '-', ' ', ' ', ' ', '\n', '\t', '\u00a0', '\u3000', '.', '!', '?', ',', ';', ':', '"', '(', 'é', 'Ж', '中', '٣', '😀', '_'];
    function texts(seed: number, count: number, ascii: boolean): string[] {
      const rng = new Rng(seed);
      const letters = ascii ? alphabet.filter((c) => c.charCodeAt(0) < 128) : alphabet;
      return Array.from({ length: count }, () => {
        let text = '';
        for (let n = rng.int(0, 30); n > 0; n--) text += rng.pick(letters);
        return text;
      });
    }

    it('finds the words of [\\p{L}\\p{N}][\\p{L}\\p{N}\'-]*, where they start', () => {
      for (const text of [...texts(11, 3000, true), ...texts(12, 3000, false)]) {
        const found: Array<[string, number]> = [];
        forEachWord(text, (word, start) => found.push([word, start]));
        const expected = [...text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu)].map((m) => [m[0], m.index]);
        expect(found, JSON.stringify(text)).toEqual(expected);
      }
    });

    it('cuts collapsed text into sentences as split(/(?<=[.!?])\\s+|\\n+/) does', () => {
      for (const raw of [...texts(13, 3000, true), ...texts(14, 3000, false)]) {
        const text = raw.replace(/\s+/g, ' ').trim();
        const expected = text.split(/(?<=[.!?])\s+|\n+/).map((s) => s.trim()).filter(Boolean);
        expect(sentencesOf(text), JSON.stringify(text)).toEqual(expected);
      }
    });

    it('reads numbers as match(/-?\\d+(?:\\.\\d+)?/g) finds them', () => {
      for (const text of [...texts(17, 3000, true), ...texts(18, 3000, false), '1.2.3 -4- --5 6. .7 -0 9'.repeat(3), '9'.repeat(400)]) {
        const expected = (text.match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number).filter(Number.isFinite);
        expect(numbersIn(text), JSON.stringify(text)).toEqual(expected);
      }
    });

    it('drops final marks and spaces as replace(/[\\s?!.;:,]+$/u) does', () => {
      for (const text of [...texts(15, 3000, true), ...texts(16, 3000, false)]) {
        expect(withoutFinalMarks(text), JSON.stringify(text)).toBe(text.replace(/[\s?!.;:,]+$/u, ''));
      }
    });
  });
});
