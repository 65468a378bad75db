import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/lib/random.ts';
import { analyseSubject, collapseSpaces, FIRST_TO_SECOND, isAllDigits, isCapitalised, sentencesOf, toSecondPerson, withoutFinalMarks } from '../../src/server/domain/engine/text/subject.ts';

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
    // Words every object has a property for are words like any other.
    ['How do I call the constructor of my class?', 'howto', 'call the constructor of your class'],
    ['Explain toString and hasOwnProperty in my code', 'about', 'toString and hasOwnProperty in your code'],
  ])('%s → %s "%s"', (text, intent, phrase) => {
    expect(analyseSubject(text)).toMatchObject({ intent, phrase });
  });

  it('quotes a bounded part of the message: no over-long word, name, phrase or sentence', () => {
    const word = 'q'.repeat(100_000);
    const subject = analyseSubject(`Tell me about ${word} and ${'Big '.repeat(1000)}things. ${'very '.repeat(10_000)}long indeed`);
    expect(subject.keywords).not.toContain(word);
    expect(Math.max(...subject.keywords.map((k) => k.length))).toBeLessThanOrEqual(40);
    expect(subject.properNouns[0]).toBe('Big Big Big Big');
    expect(subject.phrase.length).toBeLessThanOrEqual(80);
    expect(subject.sentence.length).toBeLessThanOrEqual(240);
    expect(analyseSubject(`What is ${word}?`).phrase.length).toBeLessThanOrEqual(80);
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

describe('reading text', () => {
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

  describe('the cutting of text, against the expressions it stands for', () => {
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

    it('cuts text into sentences as split(/(?<=[.!?]) /) does, and collapsed text as split(/(?<=[.!?])\\s+|\\n+/)', () => {
      for (const raw of [...texts(13, 3000, true), ...texts(14, 3000, false)]) {
        const text = raw.replace(/\s+/g, ' ').trim();
        const expected = text.split(/(?<=[.!?])\s+|\n+/).map((s) => s.trim()).filter(Boolean);
        expect(sentencesOf(text), JSON.stringify(text)).toEqual(expected);
        // Text not collapsed too: exactly the cuts of the expression the loop stands for.
        expect(sentencesOf(raw), JSON.stringify(raw)).toEqual(raw.split(/(?<=[.!?]) /).filter(Boolean));
      }
    });

    it('drops final marks and spaces as replace(/[\\s?!.;:,]+$/u) does', () => {
      for (const text of [...texts(15, 3000, true), ...texts(16, 3000, false)]) {
        expect(withoutFinalMarks(text), JSON.stringify(text)).toBe(text.replace(/[\s?!.;:,]+$/u, ''));
      }
    });

    it('drops a long run of final marks in one pass (the expression would try every start in the run)', () => {
      // Linear: a million marks before a letter are read once, so this returns at once.
      const text = `${'?'.repeat(1_000_000)}a${'!'.repeat(10)}`;
      expect(withoutFinalMarks(text)).toBe(text.slice(0, 1_000_001));
    });
  });
});

/**
 * Functions that answer from a cheap test before an expression (a replace, or a test of Unicode classes) must
 * give exactly what the expression alone gives, for every character and mix of them.
 */
describe('the shortcuts before an expression', () => {
  const everyCodeUnit = Array.from({ length: 0x10000 }, (_, code) => String.fromCharCode(code));
  const mixes = (alphabet: readonly string[], seed: number) => {
    const rng = new Rng(seed);
    return Array.from({ length: 20_000 }, () => Array.from({ length: rng.int(0, 12) }, () => rng.pick(alphabet)).join(''));
  };

  it('collapseSpaces gives what collapsing every run of whitespace and trimming gives', () => {
    const collapsed = (text: string) => text.replace(/\s+/g, ' ').trim();
    for (const c of everyCodeUnit) {
      for (const text of [c, `a${c}b`, `a ${c}b`, `${c}a`, `a${c}`]) expect(collapseSpaces(text), JSON.stringify(text)).toBe(collapsed(text));
    }
    const alphabet = ['a', 'Bc', ' ', ' ', '  ', '\t', '\n', '\r\n', '\v', '\f', '\u00a0', '\u2003', '\u2028', '\u3000', '\ufeff', '\u200b', 'é', '😀'];
    for (const text of mixes(alphabet, 1)) expect(collapseSpaces(text), JSON.stringify(text)).toBe(collapsed(text));
  });

  it('isCapitalised and isAllDigits give what their expressions give', () => {
    for (const c of everyCodeUnit) {
      for (const word of [c, `${c}a`, `${c}1`, `${c}${c}`, `${c}\udc00`]) {
        expect(isCapitalised(word), JSON.stringify(word)).toBe(/^\p{Lu}/u.test(word));
        expect(isAllDigits(word), JSON.stringify(word)).toBe(/^\p{N}+$/u.test(word));
      }
    }
    for (const word of ['𝐀bc', '𝟙𝟚', '٣٤', 'Ⅻ', '½', '12a', '007']) {
      expect(isCapitalised(word), word).toBe(/^\p{Lu}/u.test(word));
      expect(isAllDigits(word), word).toBe(/^\p{N}+$/u.test(word));
    }
  });

  it('toSecondPerson gives what replacing each first-person word gives', () => {
    // The replace alone, with the module's own table.
    const replaced = (text: string) => text.replace(/[\p{L}']+/gu, (word) => FIRST_TO_SECOND.get(word.toLowerCase()) ?? word);
    for (const c of everyCodeUnit) {
      for (const text of [c, `${c}my`, `my${c}`, `i${c}`, `${c}us ${c}`]) expect(toSecondPerson(text), JSON.stringify(text)).toBe(replaced(text));
    }
    // Every key in several cases, words that only begin or end like one, letters that fold or lower to
    // ASCII (long s, Kelvin, dotted and dotless i), and what separates words.
    const words = [...FIRST_TO_SECOND.keys(), 'I', 'My', 'MYSELF', "I'M", 'Us', 'oUR', 'myth', 'amy', 'ours1', "'", "we'll", 'uſ', 'ſ', 'K', 'İ', 'ı', 'naïve', 'é'];
    const between = [' ', ' ', ',', '-', '1', '.', '\u00a0', '\u0301', '😀'];
    const alphabet = [...words, ...between, ...between];
    for (const text of mixes(alphabet, 2)) expect(toSecondPerson(text), JSON.stringify(text)).toBe(replaced(text));
  });
});
