/**
 * A small least-recently-used cache for the engine's pure functions. Load tests and retrying clients
 * send the same request again and again; the answer is a function of the request, so it is computed
 * once. Cached answers are frozen, because every caller shares the same object.
 */
import { canonicalJson } from './random.ts';

/** Requests larger than this (as canonical JSON) are answered without caching, to bound memory. */
export const MAX_KEY_CHARS = 16_384;
export const MAX_ENTRIES = 512;

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}

/**
 * Wraps a one-argument pure function with an LRU cache keyed by the argument's canonical JSON.
 *
 * @example
 * const cachedAnswer = memoize(answerChat);
 * cachedAnswer(request) === cachedAnswer({ ...request }); // true: same content, same frozen answer
 */
export function memoize<A, R>(fn: (argument: A) => R, maxEntries = MAX_ENTRIES): (argument: A) => R {
  const cache = new Map<string, R>();
  return (argument: A): R => {
    const key = canonicalJson(argument);
    if (key.length > MAX_KEY_CHARS) return fn(argument);
    const hit = cache.get(key);
    if (hit !== undefined) {
      // Re-inserting moves the entry to the young end of the Map's insertion order.
      cache.delete(key);
      cache.set(key, hit);
      return hit;
    }
    const result = deepFreeze(fn(argument));
    cache.set(key, result);
    if (cache.size > maxEntries) cache.delete(cache.keys().next().value as string);
    return result;
  };
}
