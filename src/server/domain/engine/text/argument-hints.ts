/**
 * What a model would put in a property, judged by its name: a place from the message for `city`, the
 * question for `query`, a number the user gave for `count`, `en` for `language` … The generator tries
 * these first and keeps the first one the schema accepts.
 */
import type { Rng } from '../../../../lib/random.ts';
import type { Subject } from './subject.ts';

/**
 * One example per JSON Schema format, each valid for ajv-formats. A Map: the format is the caller's, and an
 * object would also answer `toString` or `constructor` (with a function, where a string was expected).
 */
export const FORMAT_EXAMPLES = new Map(Object.entries({
  date: '2025-01-15',
  'date-time': '2025-01-15T09:30:00Z',
  time: '09:30:00Z',
  email: 'user@example.com',
  'idn-email': 'user@example.com',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  'uri-reference': 'https://example.com/',
  iri: 'https://example.com/',
  'iri-reference': 'https://example.com/',
  'uri-template': 'https://example.com/{id}',
  'json-pointer': '/0',
  'relative-json-pointer': '0',
  regex: '^.*$',
  duration: 'P1D',
  byte: 'ZXhhbXBsZQ==',
}));

const PLACE = /(?:^|_)(?:city|location|place|town|address|destination|origin|region|country|state|area|venue|where|from|to)(?:$|_)/;
const PERSON = /(?:^|_)(?:name|title|author|artist|person|username|user|recipient|contact)(?:$|_)/;
const FREE_TEXT = /(?:^|_)(?:query|search|q|question|prompt|text|message|content|topic|subject|keywords?|terms?|description|input|body|note|notes|summary)(?:$|_)/;
const FIXED: Array<[RegExp, string]> = [
  [/(?:^|_)(?:lang|language|locale)(?:$|_)/, 'en'],
  [/(?:^|_)currency(?:$|_)/, 'USD'],
  [/(?:^|_)(?:timezone|tz|time_zone)(?:$|_)/, 'UTC'],
  [/(?:^|_)colou?r(?:$|_)/, 'blue'],
  [/(?:^|_)units?(?:$|_)/, 'metric'],
  [/(?:^|_)e?mail(?:$|_)/, 'user@example.com'],
  [/(?:^|_)(?:url|uri|link|website|homepage)(?:$|_)/, 'https://example.com/'],
];
const GEO = /(?:^|_)(?:lat|latitude|lon|lng|long|longitude)(?:$|_)/;
const NUMBERS: Array<[RegExp, number]> = [
  [/(?:^|_)(?:lat|latitude)(?:$|_)/, 48.8566],
  [/(?:^|_)(?:lon|lng|long|longitude)(?:$|_)/, 2.3522],
  [/(?:^|_)(?:page|offset|index)(?:$|_)/, 1],
  [/(?:^|_)(?:limit|count|num|max|top|size|results|quantity|items|k|n)(?:$|_)/, 5],
  [/(?:^|_)(?:days|nights|weeks|hours|minutes|duration)(?:$|_)/, 3],
  [/(?:^|_)age(?:$|_)/, 30],
  [/(?:^|_)year(?:$|_)/, 2025],
  [/(?:^|_)(?:price|amount|cost|budget|total)(?:$|_)/, 100],
  [/(?:^|_)(?:rating|score|stars)(?:$|_)/, 4],
  [/(?:^|_)(?:percent|percentage)(?:$|_)/, 50],
];

/**
 * Splits `unitOfMeasure` / `max-results` into lowercased words joined by `_`.
 *
 * @example
 * normaliseName('maxResults'); // 'max_results'
 */
export function normaliseName(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/[-\s]+/g, '_').toLowerCase();
}

/**
 * Whether a text mentions a word as a whole word, ignoring case.
 *
 * @example
 * mentioned('Weather in Fahrenheit please', 'fahrenheit'); // true
 */
export function mentioned(text: string, word: string): boolean {
  if (word === '') return false;
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?:^|[^\\p{L}\\p{N}])${escaped}(?:$|[^\\p{L}\\p{N}])`, 'iu').test(text);
}

/**
 * Strings for a property, best guess first. `variant` tells sibling array items apart.
 *
 * @example
 * stringHints('city', 0, analyseSubject('Weather in Paris?'), new Rng(1)); // ['Paris', 'Paris', 'example']
 */
export function stringHints(name: string, variant: number, subject: Subject, rng: Rng): string[] {
  const words = subject.keywords;
  const pick = (list: readonly string[]): string | undefined => list[variant % Math.max(list.length, 1)];
  const out: string[] = [];
  for (const [pattern, value] of FIXED) if (pattern.test(name)) out.push(value);
  if (/(?:^|_)(?:date|day|when)(?:$|_)/.test(name)) out.push(/\d{4}-\d{2}-\d{2}/.exec(subject.text)?.[0] ?? FORMAT_EXAMPLES.get('date')!);
  if (/(?:^|_)id$/.test(name)) out.push(`id_${rng.hex24().slice(0, 8)}`);
  if (PLACE.test(name) || PERSON.test(name)) {
    const chosen = pick(subject.properNouns) ?? pick(words);
    if (chosen) out.push(chosen);
  }
  if (FREE_TEXT.test(name)) {
    const phrase = variant === 0 ? subject.phrase || subject.sentence : pick(words);
    if (phrase) out.push(phrase);
  }
  const fallback = pick(words);
  if (fallback) out.push(fallback);
  out.push(variant === 0 ? 'example' : `example ${variant + 1}`);
  return out;
}

/**
 * The number a model would give for a property before bounds apply: one the user said, else a
 * typical value for the name. Different variants give different numbers.
 *
 * @example
 * numberHint('days', 0, true, analyseSubject('Forecast for the next 3 days'), new Rng(1)); // 3
 */
export function numberHint(name: string, variant: number, integer: boolean, subject: Subject, rng: Rng): number {
  const spoken = subject.numbers.filter((n) => !integer || Number.isInteger(n));
  if (!GEO.test(name) && variant < spoken.length) return spoken[variant] as number;
  const hinted = NUMBERS.find(([pattern]) => pattern.test(name));
  const base = hinted ? hinted[1] : rng.int(1, 10);
  // Odd variants of a plain number are fractional, so that `oneOf: [number, integer]` has a value for each.
  return integer ? Math.round(base) + variant : base + variant + (variant % 2 === 1 ? 0.5 : 0);
}
