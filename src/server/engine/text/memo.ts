/**
 * A small least-recently-used cache for the engine's pure functions. Load tests and retrying clients
 * send the same request again and again; the answer is a function of the request, so it is computed
 * once. Cached answers are frozen, because every caller shares the same object.
 */
/** Requests larger than this (as JSON) are answered without caching, to bound memory. */
export const MAX_KEY_CHARS = 16_384;
export const MAX_ENTRIES = 512;

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
 * Wraps a one-argument pure function with an LRU cache keyed by the argument's JSON. The key is plain
 * `JSON.stringify` (native, several times faster than a key-sorting stringify): two equal arguments
 * whose keys come in a different order miss each other's entry, which costs one computation and never
 * a different answer, since the functions themselves do not depend on key order.
 *
 * @example
 * const cachedAnswer = memoize(answerChat);
 * cachedAnswer(request) === cachedAnswer({ ...request }); // true: same content, same frozen answer
 */
export function memoize<A, R>(fn: (argument: A) => R, maxEntries = MAX_ENTRIES): (argument: A) => R {
  const cache = new Map<string, R>();
  return (argument: A): R => {
    const key = JSON.stringify(argument) ?? 'undefined';
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
