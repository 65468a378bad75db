/**
 * Turns a request into the seed of its answer. At temperature 0 only the request counts, so the seed has
 * no effect; at any other temperature (1 when absent, as upstream) the seed and temperature count too.
 * `max_tokens` is left out on purpose: a cut answer is then a prefix of the full one.
 */
import { hashCanonical, Rng } from './random.ts';

export interface SeedInput {
  /** Everything that shapes the answer except sampling settings and max_tokens. */
  content: unknown;
  temperature?: number | null;
  seed?: number | null;
}

/** Separate streams per use, so that, say, tool ids do not shift when the text changes. */
export const STREAM = { text: 1, tools: 2 } as const;

/**
 * The generator for one use (`STREAM.text`, `STREAM.tools`) of one request.
 *
 * @example
 * requestRng({ content: { prompt: 'Hi' }, temperature: 0, seed: 7 }, STREAM.text).next();
 * // the same number for every seed, because temperature is 0
 */
export function requestRng(input: SeedInput, stream: number): Rng {
  const temperature = input.temperature ?? 1;
  const sampling = temperature === 0 ? null : { temperature, seed: input.seed ?? 0 };
  return new Rng(hashCanonical({ content: input.content, sampling }, stream));
}
