/**
 * The answers to recent requests. Load tests and retrying clients send the same request again and again;
 * the answer is a function of the request, so it is computed once. Cached answers are frozen, because
 * every caller shares the same object.
 *
 * The key is the hash the answer's seed is made from anyway (`canonicalDigest` of the request's seed
 * material), so a request seen for the first time, as most are, pays for a lookup and no more. A hit is
 * confirmed by comparing the request with the one remembered, so two requests whose hashes collide each
 * get their own answer. The memo keeps the request objects it answered and relies on nobody changing them
 * afterwards (the server's come from JSON.parse and are only read).
 *
 * An answer is remembered the second time its request is seen, not the first: most requests are never
 * sent again, and remembering one costs more than its lookup: its answer and request outlive V8's young
 * generation and are copied into the old one, and the answer is walked to be frozen. A request seen once
 * leaves only its hash behind (a small integer in a table of them), so traffic that never repeats pays for
 * none of that, and a repeated request is computed twice before it is answered from the memo.
 */
import { Generations } from './generations.ts';
import type { CanonicalDigest } from './random.ts';

/** Requests longer than this (as canonical JSON) are answered without being remembered, to bound memory. */
export const MAX_KEY_CHARS = 16_384;
/**
 * Answers remembered per generation (two generations are kept; see generations.ts): enough for retries
 * and load tests that repeat a request. Kept small because a remembered answer outlives V8's young
 * generation and is copied into the old one, work that traffic which never repeats pays for nothing
 * (in interleaved benchmark runs, 32 per generation cost 5–10% less CPU per distinct request than 256).
 */
export const ANSWERS_PER_GENERATION = 64;
/** Hashes of requests seen once, per generation: cheap to keep, so many more than answers. */
export const SIGHTINGS_PER_GENERATION = 1024;

/** What identifies an answer: everything its seed is made of, and the `max_tokens` it was cut to. */
export interface MemoKey {
  /** The seed material (see request-seed.ts); compared as JSON on a hit. */
  material: unknown;
  /** The material's canonical digest, as the answer's seed uses it. */
  digest: CanonicalDigest;
  maxTokens: number | null;
}

interface Entry<R> {
  material: unknown;
  maxTokens: number | null;
  answer: R;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    if (Array.isArray(value)) {
      // Token pieces are long arrays of strings: walk them without copying them (as Object.values would).
      for (let i = 0; i < value.length; i++) if (typeof value[i] === 'object') deepFreeze(value[i]);
    } else for (const key in value) deepFreeze(value[key]);
  }
  return value;
}

/**
 * Equal as JSON values, members that are undefined being absent (as in canonical JSON). Stricter than
 * canonical JSON in corners (NaN, undefined in arrays), which only costs a recomputation.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let members = 0;
  for (const key of Object.keys(left)) {
    const value = left[key];
    if (value === undefined) continue;
    members++;
    if (!Object.hasOwn(right, key) || !sameJson(value, right[key])) return false;
  }
  for (const key of Object.keys(right)) if (right[key] !== undefined) members--;
  return members === 0;
}

/**
 * @example
 * const answers = new AnswerMemo<ChatAnswer>();
 * answers.answer({ material, digest, maxTokens: null }, () => compose(request)); // computed once per request
 */
export class AnswerMemo<R> {
  private readonly entries: Generations<number, Entry<R>>;
  /** Slots of requests seen once, folded to 32 bits (small integers in V8, not boxed numbers). */
  private readonly sightings: Generations<number, true>;

  constructor(perGeneration = ANSWERS_PER_GENERATION, sightingsPerGeneration = SIGHTINGS_PER_GENERATION) {
    this.entries = new Generations(perGeneration);
    this.sightings = new Generations(sightingsPerGeneration);
  }

  /**
   * The answer remembered for an equal key; else `compute()`'s, frozen and remembered when this key was
   * seen before, and as it is (unshared, so not frozen) the first time.
   */
  answer(key: MemoKey, compute: () => R): R {
    if (key.digest.length > MAX_KEY_CHARS) return compute();
    // Another max_tokens is another answer: it moves the slot (any mix will do, hits are confirmed).
    const slot = key.maxTokens === null ? key.digest.hash : key.digest.hash + (key.maxTokens + 1) * 0x9e3779b1;
    const hit = this.entries.get(slot);
    if (hit !== undefined && hit.maxTokens === key.maxTokens && sameJson(hit.material, key.material)) return hit.answer;
    // A folded slot shared by two requests only makes one of them remembered a sighting early.
    const sighting = slot | 0;
    if (this.sightings.get(sighting) === undefined) {
      this.sightings.set(sighting, true);
      return compute();
    }
    const answer = deepFreeze(compute());
    this.entries.set(slot, { material: key.material, maxTokens: key.maxTokens, answer });
    return answer;
  }
}
