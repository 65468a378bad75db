/**
 * The seeds of an answer, from the request. At temperature 0 only the request counts, so `seed` has no
 * effect; at any other temperature (1 when absent, as upstream) `seed` and `temperature` count too.
 * `max_tokens` is left out on purpose: a cut answer is then a prefix of the full one. Text and tool calls
 * draw from separate seeds, so that, say, tool ids do not shift when the text changes.
 */
import { hashCanonical } from '../../../../lib/random.ts';

export interface SeedInput {
  /** Everything that shapes the answer except sampling settings and max_tokens. */
  content: unknown;
  temperature?: number | null;
  seed?: number | null;
}

export interface Seeds {
  text: number;
  tools: number;
}

/**
 * @example
 * seedsOf({ content: { prompt: 'Hi' }, temperature: 0, seed: 7 }).text === seedsOf({ content: { prompt: 'Hi' }, temperature: 0 }).text; // true
 */
export function seedsOf(input: SeedInput): Seeds {
  const temperature = input.temperature ?? 1;
  // The hashes of the canonical JSON of this object (salts 1 and 2), made without the string.
  const [text, tools] = hashCanonical({ content: input.content, sampling: temperature === 0 ? null : { temperature, seed: input.seed ?? 0 } }, 1, 2);
  return { text, tools };
}
