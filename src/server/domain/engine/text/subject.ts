/**
 * What the last user message is about: its intent (greeting, how-to, question, request to write …), a
 * short phrase naming its subject, and the words and numbers worth echoing back. A few regular
 * expressions are enough for the answer to read as if it understood the question.
 */

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

// A Map, not an object: a word of the message is looked up, and an object would answer `constructor` with
// its prototype's (the phrase then read "function Object() { [native code] }").
export const FIRST_TO_SECOND = new Map(Object.entries({
  i: 'you', me: 'you', my: 'your', mine: 'yours', myself: 'yourself', "i'm": "you're", "i've": "you've",
  "i'll": "you'll", "i'd": "you'd", am: 'are', we: 'you', us: 'you', our: 'your', ours: 'yours',
}));

/**
 * Whether a phrase, lowercased, holds one of FIRST_TO_SECOND's words as a whole word: most phrases hold
 * none, and this test costs a fraction of the replace with a function below. It may say yes for nothing,
 * never no for a word the replace changes. Not `/iu` on the phrase itself: under it a mark such as U+0345
 * folds to a letter, and `my` after it would not count as a word.
 */
const FIRST_PERSON = new RegExp(`(?<![\\p{L}'])(?:${[...FIRST_TO_SECOND.keys()].join('|')})(?![\\p{L}'])`, 'u');

/** Turns "fix my code" into "fix your code", keeping the case of everything else. */
export function toSecondPerson(phrase: string): string {
  if (!FIRST_PERSON.test(phrase.toLowerCase())) return phrase;
  return phrase.replace(/[\p{L}']+/gu, (word) => FIRST_TO_SECOND.get(word.toLowerCase()) ?? word);
}

/** Whitespace that `collapseSpaces` changes: any but a space, two spaces in a row, a space at either end. */
const UNCOLLAPSED = /[^\S ]| {2}|^ | $/;

/**
 * The text with each run of whitespace made one space and none at its ends. Most text has nothing to
 * change, and the test costs a fraction of the replace.
 *
 * @example
 * collapseSpaces(' Hi\n\nthere '); // 'Hi there'
 */
export function collapseSpaces(text: string): string {
  return UNCOLLAPSED.test(text) ? text.replace(/\s+/g, ' ').trim() : text;
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
// Tests of one word, made for every word of the message: kept here, built once. (Written inside the loop,
// the build turns `/^\p{Lu}/u` into `new RegExp(…)`, one new expression per word.)
const CAPITALISED = /^\p{Lu}/u;
const TWO_CAPITALS = /^\p{Lu}{2}$/u;
const DIGITS = /^\p{N}+$/u;

/**
 * Whether a word begins with a capital letter (`\p{Lu}`). Most words begin with an ASCII character, where that
 * is A–Z: read from the code, it saves an expression's call on each word.
 */
export function isCapitalised(word: string): boolean {
  const first = word.charCodeAt(0);
  return first < 0x80 ? first >= 0x41 && first <= 0x5a : CAPITALISED.test(word);
}

/** Whether a word is all digits (`\p{N}`): one that begins with an ASCII character other than 0–9 is not. */
export function isAllDigits(word: string): boolean {
  const first = word.charCodeAt(0);
  return (first >= 0x80 || (first >= 0x30 && first <= 0x39)) && DIGITS.test(word);
}

const MAX_PHRASE_WORDS = 9;

/*
 * What an answer may quote of the message. Answers echo keywords, names, the subject phrase and the
 * request's sentence, so each is bounded: a "word" of more than 40 characters (a hash, base64, a run of one
 * letter) is no keyword, a name joins at most four capitalised words, and the phrase and the sentence are
 * cut at a space within 80 and 240 characters. Without these, a 4 MB prompt of one word was answered with
 * that word: two million tokens, and a few hundred megabytes to build them.
 */
const MAX_KEYWORD_CHARS = 40;
const MAX_NAME_WORDS = 4;
const MAX_PHRASE_CHARS = 80;
const MAX_SENTENCE_CHARS = 240;

/** The text cut to at most `max` characters, at its last space within them when there is one. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return (space > 0 ? cut.slice(0, space) : cut).replace(/[\s,;:]+$/, '');
}

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
  return clip(toSecondPerson(words.join(' ').replace(/[,;:]$/, '')), MAX_PHRASE_CHARS);
}

/**
 * The sentences of a text whose whitespace is collapsed: cut at each space after `.` `!` `?`.
 *
 * @example
 * sentencesOf('Hi! What is a black hole?'); // ['Hi!', 'What is a black hole?']
 */
export function sentencesOf(text: string): string[] {
  // A loop over the spaces rather than `split(/(?<=[.!?]) /)`: the same cuts, at about half the cost (the
  // split's look-behind is tried at every character; a chat's message is cut on every request).
  const sentences: string[] = [];
  let from = 0;
  for (let at = text.indexOf(' '); at !== -1; at = text.indexOf(' ', at + 1)) {
    const before = text.charCodeAt(at - 1);
    if (before !== 0x2e && before !== 0x21 && before !== 0x3f) continue; // . ! ?
    if (at > from) sentences.push(text.slice(from, at));
    from = at + 1;
  }
  if (from < text.length) sentences.push(text.slice(from));
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
 * The text without its final punctuation and spaces. A loop from the end, not `/[\s?!.;:,]+$/`: that
 * expression tries a match at every mark of a long run, each to the end, which is quadratic in the run.
 *
 * @example
 * withoutFinalMarks('Is it blue?! '); // 'Is it blue'
 */
export function withoutFinalMarks(text: string): string {
  let end = text.length;
  while (end > 0) {
    const code = text.charCodeAt(end - 1);
    if ('?!.;:,'.includes(text.charAt(end - 1)) || /\s/.test(text.charAt(end - 1))) end--;
    else break;
  }
  return end === text.length ? text : text.slice(0, end);
}

function classify(sentence: string): { intent: Intent; phrase: string } {
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

/**
 * The numbers written in a text, as numbers (finite ones).
 *
 * @example
 * numbersIn('Book 4 seats at 19.30, not -2'); // [4, 19.3, -2]
 */
export function numbersIn(text: string): number[] {
  return (text.match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number).filter(Number.isFinite);
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
  let nameWords = 0;
  WORD.lastIndex = 0;
  for (let match = WORD.exec(text); match !== null; match = WORD.exec(text)) {
    const word = match[0];
    const start = match.index;
    wordCount++;
    if (word.length > MAX_KEYWORD_CHARS) {
      properEnd = -1;
      continue;
    }
    const lower = word.toLowerCase();
    // A capital after a sentence end is grammar, not a name.
    const capital = isCapitalised(word) && !isSentenceStart(text, start) && lower !== 'i';
    if (capital && properEnd === start - 1 && text.charCodeAt(start - 1) === 32 && nameWords < MAX_NAME_WORDS) {
      properNouns[properNouns.length - 1] += ` ${word}`;
      nameWords++;
      properEnd = start + word.length;
      continue;
    }
    properEnd = -1;
    if (STOPWORDS.has(lower) || seen.has(lower) || (lower.length < 3 && !TWO_CAPITALS.test(word)) || isAllDigits(word)) continue;
    seen.add(lower);
    if (capital) {
      properNouns.push(word);
      nameWords = 1;
      properEnd = start + word.length;
    } else keywords.push(word);
  }
  const numbers = numbersIn(text);
  const sentence = mainSentence(text).replace(FILLER, '');
  const rest = { keywords: [...properNouns, ...keywords], properNouns, numbers, sentence: clip(withoutFinalMarks(sentence), MAX_SENTENCE_CHARS), text };

  if (text === '') return { intent: 'empty', phrase: '', ...rest };
  const smallTalk = wordCount <= 8 && SMALL_TALK.test(text);
  if (smallTalk || (wordCount <= 4 && GREETING.test(text))) return { intent: 'greeting', phrase: '', ...rest };
  if (wordCount <= 8 && THANKS.test(text)) return { intent: 'thanks', phrase: '', ...rest };
  const { intent, phrase } = classify(sentence);
  return { intent, phrase, ...rest };
}
