/**
 * Decides which functions the model calls, following `tool_choice`: `none` never, a named function always
 * that one, `required` the best fit (or the first tool), and `auto` (the default) the tools whose name or
 * description the user's message mentions, or the only tool there is, when the user spoke last.
 */
import { TextEngineError } from './errors.ts';
import type { ToolChoice } from '../../chat.ts';
import type { FunctionDefinition } from './prompt-tokens.ts';
import type { Subject } from './subject.ts';

/** Parallel calls, as OpenAI's `parallel_tool_calls` allows by default, stop at this many. */
export const MAX_PARALLEL_CALLS = 3;
/** A name word counts this much; a description word counts 1. */
const NAME_WEIGHT = 3;
/** Score a tool needs to "fit": one name word, or two description words. */
const FIT_THRESHOLD = 2;

const GENERIC = new Set(
  (
    'get set fetch list create update delete find search make run call check lookup look query retrieve send add remove ' +
    'tool api func function data info the and for with from into this that your given returns return current specified ' +
    'about what which when where will should using used user users value values'
  ).split(' '),
);

function stem(word: string): string {
  const lower = word.toLowerCase();
  if (lower.length > 5 && lower.endsWith('ing')) return lower.slice(0, -3);
  if (lower.length > 4 && lower.endsWith('es')) return lower.slice(0, -2);
  if (lower.length > 3 && lower.endsWith('s')) return lower.slice(0, -1);
  return lower;
}

function wordsOf(text: string): string[] {
  return (text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').match(/[\p{L}\p{N}]+/gu) ?? []).map(stem);
}

function score(fn: FunctionDefinition, spoken: ReadonlySet<string>): number {
  let total = 0;
  for (const word of new Set(wordsOf(fn.name))) if (!GENERIC.has(word) && spoken.has(word)) total += NAME_WEIGHT;
  for (const word of new Set(wordsOf(fn.description ?? ''))) {
    if (word.length >= 4 && !GENERIC.has(word) && spoken.has(word)) total += 1;
  }
  return total;
}

export interface ToolChoiceInput {
  functions: readonly FunctionDefinition[];
  choice: ToolChoice | undefined;
  /** Role of the last message: `auto` only calls tools right after the user spoke. */
  lastRole: string;
  subject: Subject;
  parallel: boolean;
}

/**
 * The functions to call, in order (empty for a text answer).
 *
 * @example
 * chooseTools({ functions: [{ name: 'get_weather' }], choice: 'auto', lastRole: 'user',
 *   subject: analyseSubject('Weather in Paris?'), parallel: true }); // [{ name: 'get_weather' }]
 */
export function chooseTools(input: ToolChoiceInput): FunctionDefinition[] {
  const { functions, choice, lastRole, subject, parallel } = input;
  if (typeof choice === 'object' && choice !== null) {
    const wanted = choice.function.name;
    const named = functions.find((fn) => fn.name === wanted);
    if (!named) throw new TextEngineError(`tool_choice names the function '${wanted}', which is not in tools.`);
    return [named];
  }
  if (functions.length === 0) {
    if (choice === 'required') throw new TextEngineError("tool_choice 'required' needs at least one tool in tools.");
    return [];
  }
  const mode = choice ?? 'auto';
  if (mode === 'none') return [];

  const spoken = new Set(wordsOf(subject.text));
  const fitting = functions
    .map((fn, index) => ({ fn, index, score: score(fn, spoken) }))
    .filter((entry) => entry.score >= FIT_THRESHOLD)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((entry) => entry.fn);
  const chosen = parallel ? fitting.slice(0, MAX_PARALLEL_CALLS) : fitting.slice(0, 1);

  if (mode === 'required') return chosen.length > 0 ? chosen : functions.slice(0, 1);
  if (lastRole !== 'user') return [];
  if (chosen.length > 0) return chosen;
  return functions.length === 1 ? functions.slice() : [];
}
