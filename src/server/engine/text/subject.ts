/**
 * What the last user message is about: its intent (greeting, how-to, question, request to write …), a
 * short phrase naming its subject, and the words and numbers worth echoing back. A few regular
 * expressions are enough for the answer to read as if it understood the question.
 */

import { isAscii, isAsciiAlphanumeric, isAsciiDigit as isDigit, isSpace } from './characters.ts';

export type Intent =
  | 'greeting'
  | 'thanks'
  | 'howto'
  | 'about'
  | 'why'
  | 'write'
  | 'list'
  | 'request'
  | 'yesno'
  | 'statement'
  | 'empty';

export interface Subject {
  intent: Intent;
  /** The subject as a phrase, first person turned into second ("my code" → "your code"). */
  phrase: string;
  /** Content words in order of appearance, proper nouns first; no duplicates. */
  keywords: string[];
  /** Capitalised words that are not at the start of a sentence (names, places). */
  properNouns: string[];
  numbers: number[];
  /** The sentence that carries the request, without courtesy words or final punctuation. */
  sentence: string;
  /** The whole text, whitespace collapsed. */
  text: string;
}

const STOPWORDS = new Set(
  (
    'a about above after again all also am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing done down during each either else ever every few for from further get gets got had has have ' +
    'having he her here hers herself him himself his how however i if in into is it its itself just know let like lot make many me ' +
    'might mine more most much must my myself need no nor not now of off on once one only or other our ours out over own please ' +
    'really same say she should so some something such tell than thank thanks that the their theirs them then there these they ' +
    'thing things think this those through to too under until up us use very want was way we well were what when where which ' +
    'while who whom whose why will with would yes yet you your yours yourself hello hi hey okay ok give show explain describe ' +
    'write list help find today tomorrow currently current right now upon once just even still since ago often always never ' +
    'maybe perhaps summarize summarise define outline compare create generate draft compose suggest recommend fix ' +
    'translate calculate teach'
  ).split(' '),
);

const FIRST_TO_SECOND: Record<string, string> = {
  i: 'you', me: 'you', my: 'your', mine: 'yours', myself: 'yourself', "i'm": "you're", "i've": "you've",
  "i'll": "you'll", "i'd": "you'd", am: 'are', we: 'you', us: 'you', our: 'your', ours: 'yours',
};

/** Turns "fix my code" into "fix your code", keeping the case of everything else. */
function toSecondPerson(phrase: string): string {
  return phrase.replace(/[\p{L}']+/gu, (word) => FIRST_TO_SECOND[word.toLowerCase()] ?? word);
}

/** Leading courtesy words that carry no subject. */
const FILLER = /^(?:(?:please|hey|hi|hello|ok|okay|so|well|um|hmm|also|and|now|quick question)[,!.:]?\s+)+/i;

export const PATTERNS: Array<[RegExp, Intent]> = [
  [/^how (?:do|can|should|could|would|might|will|does) (?:i|we|you|one|someone|people) (.+)/i, 'howto'],
  [/^how to (.+)/i, 'howto'],
  [/^(?:what|who)(?:'s|'re| is| are| was| were) (.+)/i, 'about'],
  [/^(?:tell me|teach me|talk|learn|know) (?:more )?about (.+)/i, 'about'],
  [/^(?:tell|read|sing) (?:me |us )?((?:a|an|some|another) (?:\w+ )?(?:story|stories|joke|jokes|poem|tale|riddle|song|fact)\b.*)/i, 'write'],
  [/^tell (?:me|us) (.+)/i, 'about'],
  [/^(?:explain|describe|summari[sz]e|define|outline)(?: to me)? (.+)/i, 'about'],
  [/^why (.+)/i, 'why'],
  [/^(?:write|compose|draft|create|generate|make|come up with)(?: me| us)? (.+)/i, 'write'],
  [/^(?:list|name|enumerate|suggest|recommend|give me)(?: me)? (.+)/i, 'list'],
  [/^(?:is|are|do|does|did|can|could|should|will|would|was|were|has|have|am) (.+)/i, 'yesno'],
  [/^(?:what|which|where|when|how|who) (?:\w+ )?(.+)/i, 'about'],
];

export const POLITE_REQUEST = /^(?:can|could|would|will) you (?:please )?(.+)/i;
const GREETING = /^(?:hi|hello|hey|hiya|howdy|greetings|good (?:morning|afternoon|evening|day)|yo)\b/i;
const SMALL_TALK = /^(?:(?:hi|hello|hey)\b[,!]?\s*)?(?:there[,!]?\s*)?(?:how are you|how's it going|how are things|what's up)\b/i;
const THANKS = /^(?:thanks|thank you|thx|ty|cheers|much appreciated|great,? thanks)\b/i;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'-]*/gu;
const MAX_PHRASE_WORDS = 9;

/** Where a subject phrase stops: what follows is about the answer's style, not its subject. */
const PHRASE_END = /\s+(?:to me|for me|for us|like i(?:'m| am)|in simple terms|in (?:a|one) (?:few words|sentence|paragraph)|please|so (?:that|i)|because|thanks)\b.*$/i;

function trimPhrase(phrase: string): string {
  let words = withoutFinalMarks(phrase)
    .replace(PHRASE_END, '')
    .split(/\s+/)
    .filter(Boolean);
  if (words.length > MAX_PHRASE_WORDS) {
    words = words.slice(0, MAX_PHRASE_WORDS);
    // A phrase cut short should not end on a word that needs a continuation ("the history of").
    while (words.length > 2 && STOPWORDS.has((words[words.length - 1] ?? '').toLowerCase())) words.pop();
  }
  return toSecondPerson(words.join(' ').replace(/[,;:]$/, ''));
}

/**
 * The sentences of a text whose whitespace is collapsed (see `collapseSpaces`): cut at each space after
 * `.` `!` `?`. The same as `text.split(/(?<=[.!?])\s+|\n+/).map((s) => s.trim()).filter(Boolean)` on such
 * a text, without the expression (`subject.test.ts` compares the two).
 *
 * @example
 * sentencesOf('Hi! What is a black hole?'); // ['Hi!', 'What is a black hole?']
 */
export function sentencesOf(text: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  for (let i = 1; i < text.length; i++) {
    if (text.charCodeAt(i) !== 32) continue;
    const before = text.charCodeAt(i - 1);
    if (before === 46 || before === 33 || before === 63) {
      if (i > start) sentences.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (start < text.length) sentences.push(start === 0 ? text : text.slice(start));
  return sentences;
}

/** Picks the sentence that carries the request: the first question, else the first that is not a greeting. */
function mainSentence(text: string): string {
  const sentences = sentencesOf(text);
  const question = sentences.find((s) => s.endsWith('?'));
  if (question) return question;
  const substantive = sentences.find((s) => !GREETING.test(s) || s.split(/\s+/).length > 4);
  return substantive ?? sentences[0] ?? '';
}

/**
 * `text.replace(/[\s?!.;:,]+$/u, '')`: the text without its final punctuation and spaces.
 *
 * @example
 * withoutFinalMarks('Is it blue?! '); // 'Is it blue'
 */
export function withoutFinalMarks(text: string): string {
  let end = text.length;
  while (end > 0) {
    const code = text.charCodeAt(end - 1);
    if (code === 63 || code === 33 || code === 46 || code === 59 || code === 58 || code === 44 || isSpace(code)) end--;
    else break;
  }
  return end === text.length ? text : text.slice(0, end);
}

/**
 * Every word that can open POLITE_REQUEST or one of PATTERNS (lower case). A sentence that opens with
 * another word is a statement, and the thirteen expressions need not run on it; the test
 * `subject.test.ts` checks this list against the expressions.
 */
export const OPENING_WORDS = new Set(
  (
    'how what who tell teach talk learn know read sing explain describe summarise summarize define outline why write ' +
    'compose draft create generate make come list name enumerate suggest recommend give is are do does did can could ' +
    'should will would was were has have am which where when'
  ).split(' '),
);

/** The run of ASCII letters that opens a text, in lower case ('' when it opens with anything else). */
function firstWord(text: string): string {
  let end = 0;
  while (end < text.length) {
    const code = text.charCodeAt(end) | 0x20;
    if (code < 97 || code > 122) break;
    end++;
  }
  return text.slice(0, end).toLowerCase();
}

function classify(sentence: string): { intent: Intent; phrase: string } {
  // The expressions are case-insensitive without the u flag, so only ASCII letters can match their words.
  if (!OPENING_WORDS.has(firstWord(sentence))) return { intent: 'statement', phrase: '' };
  const polite = POLITE_REQUEST.exec(sentence);
  if (polite?.[1]) {
    const inner = classify(polite[1]);
    return inner.intent === 'statement' ? { intent: 'request', phrase: trimPhrase(polite[1]) } : inner;
  }
  for (const [pattern, intent] of PATTERNS) {
    const match = pattern.exec(sentence);
    if (match?.[1]) {
      const phrase = trimPhrase(match[1].replace(/^(?:me|us)\s+/i, ''));
      if (phrase) return { intent, phrase };
    }
  }
  return { intent: 'statement', phrase: '' };
}

/**
 * `text.replace(/\s+/g, ' ').trim()`, without building a new string when the text is already like that
 * (single spaces between words, none at the ends), as almost every message is.
 */
function collapseSpaces(text: string): string {
  let previousSpace = true; // a space at the start needs the slow path too
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 32) {
      if (previousSpace) return text.replace(/\s+/g, ' ').trim();
      previousSpace = true;
    } else if (isSpace(code)) return text.replace(/\s+/g, ' ').trim();
    else previousSpace = false;
  }
  return previousSpace && text.length > 0 ? text.replace(/\s+/g, ' ').trim() : text;
}

/**
 * Whether the word at `start` opens a sentence: it opens the text, or the last character before it
 * (looking back at most three characters, past one space) ends a sentence. `text` has its whitespace
 * collapsed into single spaces and no space at its start.
 */
function isSentenceStart(text: string, start: number): boolean {
  if (start === 0) return true;
  let i = start - 1;
  if (text.charCodeAt(i) === 32) i--;
  if (i < 0) return true;
  const code = text.charCodeAt(i);
  return code === 46 || code === 33 || code === 63;
}

/** `/^\p{Lu}/u.test(word)`, without the expression for ASCII letters. */
function startsUpper(word: string): boolean {
  const code = word.charCodeAt(0);
  if (code < 128) return code >= 65 && code <= 90;
  return /^\p{Lu}/u.test(word);
}

/** `/^\p{N}+$/u.test(word)`, without the expression when the word opens with an ASCII letter. */
function allDigits(word: string): boolean {
  const code = word.charCodeAt(0) | 0x20;
  if (code >= 97 && code <= 122) return false;
  return /^\p{N}+$/u.test(word);
}

/**
 * The numbers written in a text: `text.match(/-?\d+(?:\.\d+)?/g)`, as numbers (finite ones), found by
 * hand; an id full of digits would otherwise cost an array per match.
 *
 * @example
 * numbersIn('Book 4 seats at 19.30, not -2'); // [4, 19.3, -2]
 */
export function numbersIn(text: string): number[] {
  const numbers: number[] = [];
  let i = 0;
  while (i < text.length) {
    const start = i;
    const code = text.charCodeAt(i);
    if (code === 45 && isDigit(text.charCodeAt(i + 1))) i++; // -
    else if (!isDigit(code)) {
      i++;
      continue;
    }
    while (isDigit(text.charCodeAt(i))) i++;
    if (text.charCodeAt(i) === 46 && isDigit(text.charCodeAt(i + 1))) {
      i++;
      while (isDigit(text.charCodeAt(i))) i++;
    }
    const value = Number(text.slice(start, i));
    if (Number.isFinite(value)) numbers.push(value);
  }
  return numbers;
}

/** `/^\p{Lu}{2}$/u.test(word)` (an acronym such as "UK"), without the expression for ASCII words. */
function isTwoCapitals(word: string): boolean {
  if (word.length !== 2) return false;
  const a = word.charCodeAt(0);
  const b = word.charCodeAt(1);
  if (a < 128 && b < 128) return a >= 65 && a <= 90 && b >= 65 && b <= 90;
  return /^\p{Lu}{2}$/u.test(word);
}

/**
 * Calls `visit` with each match of WORD in `text` and where it starts. In ASCII text, where a letter or
 * number is A–Z, a–z or 0–9, the words are found by hand: the expression's matches cost an array each.
 *
 * @example
 * forEachWord("Ada's co-op, 1833", console.log); // "Ada's" 0, 'co-op' 6, '1833' 13
 */
export function forEachWord(text: string, visit: (word: string, start: number) => void): void {
  if (!isAscii(text)) {
    WORD.lastIndex = 0;
    for (let match = WORD.exec(text); match !== null; match = WORD.exec(text)) visit(match[0], match.index);
    return;
  }
  let i = 0;
  while (i < text.length) {
    if (!isAsciiAlphanumeric(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i++;
    for (; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (!isAsciiAlphanumeric(code) && code !== 39 && code !== 45) break; // ' and -
    }
    visit(text.slice(start, i), start);
  }
}

/**
 * Reads the intent and subject of a user message.
 *
 * @example
 * analyseSubject('How do I reset my password?');
 * // { intent: 'howto', phrase: 'reset your password', keywords: ['reset', 'password'], … }
 */
export function analyseSubject(rawText: string): Subject {
  const text = collapseSpaces(rawText);
  const properNouns: string[] = [];
  const keywords: string[] = [];
  const seen = new Set<string>();
  let wordCount = 0;
  let properEnd = -1; // where the last proper noun ended, to join "Ada Lovelace" into one name
  forEachWord(text, (word, start) => {
    wordCount++;
    const lower = word.toLowerCase();
    // A capital after a sentence end is grammar, not a name.
    const capital = startsUpper(word) && !isSentenceStart(text, start) && lower !== 'i';
    if (capital && properEnd === start - 1 && text.charCodeAt(start - 1) === 32) {
      properNouns[properNouns.length - 1] += ` ${word}`;
      properEnd = start + word.length;
      return;
    }
    properEnd = -1;
    if (STOPWORDS.has(lower) || seen.has(lower) || (lower.length < 3 && !isTwoCapitals(word)) || allDigits(word)) return;
    seen.add(lower);
    if (capital) {
      properNouns.push(word);
      properEnd = start + word.length;
    } else keywords.push(word);
  });
  const numbers = numbersIn(text);
  const sentence = mainSentence(text).replace(FILLER, '');
  const rest = { keywords: [...properNouns, ...keywords], properNouns, numbers, sentence: withoutFinalMarks(sentence), text };

  if (text === '') return { intent: 'empty', phrase: '', ...rest };
  const smallTalk = wordCount <= 8 && SMALL_TALK.test(text);
  if (smallTalk || (wordCount <= 4 && GREETING.test(text))) return { intent: 'greeting', phrase: '', ...rest };
  if (wordCount <= 8 && THANKS.test(text)) return { intent: 'thanks', phrase: '', ...rest };
  const { intent, phrase } = classify(sentence);
  return { intent, phrase, ...rest };
}
