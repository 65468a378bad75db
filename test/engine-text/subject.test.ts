import { describe, expect, it } from 'vitest';
import { analyseSubject } from '../../src/server/engine/text/subject.ts';

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
