/**
 * Turns a request into the seed of its answer. At temperature 0 only the request counts, so the seed has
 * no effect; at any other temperature (1 when absent, as upstream) the seed and temperature count too.
 * `max_tokens` is left out on purpose: a cut answer is then a prefix of the full one.
 */
import { canonicalDigest, type CanonicalDigest } from './random.ts';

export interface SeedInput {
  /** Everything that shapes the answer except sampling settings and max_tokens. */
  content: unknown;
  temperature?: number | null;
  seed?: number | null;
}

/** What the seeds of an answer are hashes of: the request's content, and its sampling unless temperature is 0. */
export interface SeedMaterial {
  content: unknown;
  sampling: { temperature: number; seed: number } | null;
}

/**
 * Separate streams per use, so that, say, tool ids do not shift when the text changes: each use's seed is
 * `hashCanonical(material, stream)`.
 */
export const STREAM = { text: 1, tools: 2 } as const;

/**
 * @example
 * seedMaterial({ content: { prompt: 'Hi' }, temperature: 0, seed: 7 }); // { content: { prompt: 'Hi' }, sampling: null }
 */
function seedMaterial(input: SeedInput): SeedMaterial {
  const temperature = input.temperature ?? 1;
  return { content: input.content, sampling: temperature === 0 ? null : { temperature, seed: input.seed ?? 0 } };
}

/**
 * A request's seed material, and its digest for the text stream: the seed of the answer's text, and the key
 * of the engine's memo of recent answers (index.ts), hashed once per request.
 */
export interface RequestSeed {
  material: SeedMaterial;
  text: CanonicalDigest;
}

/**
 * @example
 * requestSeed({ content: { prompt: 'Hi' }, temperature: 0 }).text.hash; // a 53-bit number
 */
export function requestSeed(input: SeedInput): RequestSeed {
  const material = seedMaterial(input);
  return { material, text: canonicalDigest(material, STREAM.text) };
}
