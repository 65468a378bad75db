/**
 * Writes the answer text: an opener, body sentences and a closer from the phrase bank of the question's
 * intent, with the subject's words in the slots, until the answer reaches a length drawn for this request.
 * Length is estimated from characters here; the exact token count is taken once, on the finished text.
 */
import { CONTINUATIONS, IMAGE_SENTENCES, PHRASES, TOOL_RESULT_CLOSERS, TOOL_RESULT_OPENERS } from './phrases.ts';
import type { ToolResult } from './messages.ts';
import type { Rng } from '../../../../lib/random.ts';
import { collapseSpaces, type Subject } from './subject.ts';

/** Average characters per o200k token in English prose; only used to decide when to stop adding sentences. */
const CHARS_PER_TOKEN = 4.3;

interface Slots {
  topic: string;
  key: string;
  key2: string;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const SLOT = /\{(topic|Topic|key|Key|key2|Key2)\}/g;

/** A template cut at its slots: `texts` around them (one more than `slots`), each slot's name and case. */
interface Template {
  texts: string[];
  slots: Array<{ name: keyof Slots; capital: boolean }>;
}

/**
 * Templates already cut, by their text. They are the phrase bank's sentences only, a fixed set, so the map
 * is bounded by it. Filling a cut template is a few string additions, where `replace` with a function would
 * cost each of an answer's sentences many times more.
 */
const templates = new Map<string, Template>();

function cut(template: string): Template {
  const texts: string[] = [];
  const slots: Template['slots'] = [];
  let from = 0;
  for (const match of template.matchAll(SLOT)) {
    const name = match[1]!;
    texts.push(template.slice(from, match.index));
    slots.push({ name: name.toLowerCase() as keyof Slots, capital: name.charAt(0) !== name.charAt(0).toLowerCase() });
    from = match.index! + match[0].length;
  }
  texts.push(template.slice(from));
  return { texts, slots };
}

/** The template with its slots filled; a capitalised slot name capitalises what goes in. */
function fill(template: string, slots: Slots): string {
  let parts = templates.get(template);
  if (parts === undefined) templates.set(template, (parts = cut(template)));
  let text = parts.texts[0]!;
  for (let i = 0; i < parts.slots.length; i++) {
    const slot = parts.slots[i]!;
    text += (slot.capital ? capitalise(slots[slot.name]) : slots[slot.name]) + parts.texts[i + 1]!;
  }
  return text;
}

function shuffled<T>(items: readonly T[], rng: Rng): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

const STANZA_LINES = 4;

/** The poem's stanzas, in an order drawn for this answer. */
function stanzas(lines: readonly string[], rng: Rng): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < lines.length; i += STANZA_LINES) out.push(lines.slice(i, i + STANZA_LINES));
  return shuffled(out, rng);
}

/** The characters of parts joined by one character each (and one after the last). */
function charCount(parts: readonly string[]): number {
  let chars = 0;
  for (const part of parts) chars += part.length + 1;
  return chars;
}

function estimateTokens(parts: readonly string[]): number {
  return charCount(parts) / CHARS_PER_TOKEN;
}

function slotsFor(subject: Subject): Slots {
  // In "how do I reset my password" and "write a poem about cats" the object comes last.
  const objectLast = subject.intent === 'write' || subject.intent === 'howto';
  const words = objectLast ? [...subject.properNouns, ...subject.keywords.filter((k) => !subject.properNouns.includes(k)).reverse()] : subject.keywords;
  const key = words[0] ?? 'this';
  return { topic: subject.phrase || key, key, key2: words[1] ?? key };
}

/**
 * A friendly answer to the user's message, between about 15 and 120 tokens long.
 *
 * @example
 * composeAnswer(analyseSubject('What is the capital of France?'), new Rng(1), 0);
 * // "Here's what you should know about the capital of France. …" (opener, body sentences, closer)
 */
export function composeAnswer(subject: Subject, rng: Rng, imageCount: number): string {
  const bank = PHRASES[subject.intent];
  const slots = slotsFor(subject);
  const target = rng.int(bank.length[0], bank.length[1]);
  const opener = fill(rng.pick(bank.openers), slots);
  const closer = fill(rng.pick(bank.closers), slots);
  const intro = imageCount > 0 ? [rng.pick(IMAGE_SENTENCES), opener] : [opener];

  // Steps keep their order and poems come in whole stanzas; prose is shuffled so each seed reads differently.
  const units: ReadonlyArray<string | readonly string[]> =
    bank.listStyle === 'lines' ? stanzas(bank.body, rng) : bank.listStyle ? bank.body.filter(() => rng.chance(0.8)) : shuffled(bank.body, rng);
  const body: string[] = [];
  // The characters of intro, body and closer so far, kept as a sum rather than recounted for each sentence.
  let chars = charCount(intro) + charCount([closer]);
  for (const unit of units) {
    if (chars / CHARS_PER_TOKEN >= target && (body.length > 0 || !bank.listStyle)) break;
    for (const sentence of typeof unit === 'string' ? [unit] : unit) {
      const filled = fill(sentence, slots);
      body.push(filled);
      chars += filled.length + 1;
    }
  }

  switch (bank.listStyle) {
    case 'numbered':
      return `${intro.join(' ')}\n\n${body.map((s, i) => `${i + 1}. ${s}`).join('\n')}\n\n${closer}`;
    case 'bulleted':
      return `${intro.join(' ')}\n\n${body.map((s) => `- ${s}`).join('\n')}\n\n${closer}`;
    case 'lines':
      return `${intro.join(' ')}\n\n${body.join('\n')}\n\n${closer}`;
    default:
      return [...intro, ...body, closer].join(' ');
  }
}

const MAX_QUOTE_CHARS = 160;
const MAX_FIELDS = 5;

function quote(text: string): string {
  const flat = collapseSpaces(text);
  if (flat.length <= MAX_QUOTE_CHARS) return flat;
  const cut = flat.slice(0, MAX_QUOTE_CHARS);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 1))}...`;
}

function humanise(key: string): string {
  return key.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').toLowerCase().trim();
}

function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'not available';
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    const shown = value.slice(0, 3).map(describeValue).join(', ');
    return value.length === 0 ? 'an empty list' : `${value.length} item${value.length === 1 ? '' : 's'} (${shown}${value.length > 3 ? ', ...' : ''})`;
  }
  return quote(JSON.stringify(value));
}

/** One sentence that states what a tool returned, quoting its values. */
function describeResult(result: ToolResult): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(result.content);
  } catch {
    parsed = undefined;
  }
  if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
    const entries = Object.entries(parsed as Record<string, unknown>).slice(0, MAX_FIELDS);
    if (entries.length === 0) return `${result.name} returned no details.`;
    const clauses = entries.map(([key, value]) => `the ${humanise(key) || 'value'} is ${describeValue(value)}`);
    const last = clauses.pop() as string;
    const list = clauses.length > 0 ? `${clauses.join(', ')} and ${last}` : last;
    return `According to ${result.name}, ${list}.`;
  }
  if (parsed !== undefined) return `${result.name} returned ${describeValue(parsed)}.`;
  const text = quote(result.content);
  return text === '' ? `${result.name} finished without output.` : `${result.name} returned: "${text}".`;
}

/**
 * The answer after tool results: what each tool returned, in words, then a line tied to the question.
 *
 * @example
 * composeToolAnswer([{ name: 'get_weather', content: '{"temperature":21}' }], analyseSubject('Weather in Paris?'), new Rng(1));
 * // 'I checked that for you. According to get_weather, the temperature is 21. Let me know if …'
 */
export function composeToolAnswer(results: readonly ToolResult[], subject: Subject, rng: Rng): string {
  const slots = slotsFor(subject);
  const sentences = [rng.pick(TOOL_RESULT_OPENERS), ...results.slice(0, 4).map(describeResult)];
  sentences.push(fill(rng.pick(TOOL_RESULT_CLOSERS), slots));
  return sentences.join(' ');
}

/**
 * A continuation for a bare prompt: answers it when it asks for something, else carries its sentence on
 * and adds a few sentences about its subject.
 *
 * @example
 * composeContinuation('Once upon a time', analyseSubject('Once upon a time'), new Rng(1));
 * // ' and the rest followed naturally from there. At its core, …'
 */
export function composeContinuation(prompt: string, subject: Subject, rng: Rng): string {
  if (subject.intent !== 'statement') return `${/\s$/.test(prompt) ? '' : '\n\n'}${composeAnswer(subject, rng, 0)}`;
  const slots = slotsFor(subject);
  const bank = PHRASES.about;
  const target = rng.int(bank.length[0], bank.length[1]);
  const endsSentence = /[.!?:)"']$/.test(prompt.trimEnd());
  const parts = endsSentence ? [] : [fill(rng.pick(CONTINUATIONS), slots)];
  for (const sentence of shuffled(bank.body, rng)) {
    if (parts.length > 0 && estimateTokens(parts) >= target) break;
    parts.push(fill(sentence, slots));
  }
  return `${/\s$/.test(prompt) ? '' : ' '}${parts.join(' ')}`;
}
