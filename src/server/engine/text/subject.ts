/**
 * What the last user message is about: its intent (greeting, how-to, question, request to write …), a
 * short phrase naming its subject, and the words and numbers worth echoing back. A few regular
 * expressions are enough for the answer to read as if it understood the question.
 */

import { isSpace } from './whitespace.ts';

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
  let words = phrase
    .replace(/[\s?!.;:,]+$/u, '')
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

/** Picks the sentence that carries the request: the first question, else the first that is not a greeting. */
function mainSentence(text: string): string {
  const sentences = text.split(/(?<=[.!?])\s+|\n+/).map((s) => s.trim()).filter(Boolean);
  const question = sentences.find((s) => s.endsWith('?'));
  if (question) return question;
  const substantive = sentences.find((s) => !GREETING.test(s) || s.split(/\s+/).length > 4);
  return substantive ?? sentences[0] ?? '';
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

function hasAsciiDigit(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57) return true;
  }
  return false;
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
  const words: string[] = [];
  const properNouns: string[] = [];
  const keywords: string[] = [];
  const seen = new Set<string>();
  let properEnd = -1; // where the last proper noun ended, to join "Ada Lovelace" into one name
  WORD.lastIndex = 0;
  for (let match = WORD.exec(text); match !== null; match = WORD.exec(text)) {
    const word = match[0];
    const start = match.index;
    words.push(word);
    const lower = word.toLowerCase();
    // A capital after a sentence end is grammar, not a name.
    const capital = startsUpper(word) && !isSentenceStart(text, start) && lower !== 'i';
    if (capital && properEnd === start - 1 && text.charCodeAt(start - 1) === 32) {
      properNouns[properNouns.length - 1] += ` ${word}`;
      properEnd = start + word.length;
      continue;
    }
    properEnd = -1;
    if (STOPWORDS.has(lower) || seen.has(lower) || (lower.length < 3 && !/^\p{Lu}{2}$/u.test(word)) || allDigits(word)) continue;
    seen.add(lower);
    if (capital) {
      properNouns.push(word);
      properEnd = start + word.length;
    } else keywords.push(word);
  }
  const numbers = hasAsciiDigit(text) ? (text.match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number).filter(Number.isFinite) : [];
  const sentence = mainSentence(text).replace(FILLER, '');
  const rest = { keywords: [...properNouns, ...keywords], properNouns, numbers, sentence: sentence.replace(/[\s?!.;:,]+$/u, ''), text };

  if (text === '') return { intent: 'empty', phrase: '', ...rest };
  const smallTalk = SMALL_TALK.test(text) && words.length <= 8;
  if (smallTalk || (GREETING.test(text) && words.length <= 4)) return { intent: 'greeting', phrase: '', ...rest };
  if (THANKS.test(text) && words.length <= 8) return { intent: 'thanks', phrase: '', ...rest };
  const { intent, phrase } = classify(sentence);
  return { intent, phrase, ...rest };
}
