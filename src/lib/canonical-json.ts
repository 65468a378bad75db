/**
 * JSON with object keys sorted: two values that differ only in key order give the same text, so they hash
 * and compare alike (the seed of an answer, a cache key, `const`/`enum` comparisons).
 */

/**
 * @example
 * canonicalJson({ b: 1, a: [true, null] }); // '{"a":[true,null],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    // undefined (absent) and non-finite numbers have no JSON form; they are written like null.
    return JSON.stringify(value) ?? 'null';
  }
  // Strings joined in loops rather than through map, filter and join: an answer's seed is the canonical
  // JSON of its whole request, made on every request.
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + canonicalJson(value[i]);
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = sortedKeys(record);
  let out = '{';
  for (const key of keys) {
    const member = record[key];
    if (member === undefined) continue;
    out += `${out.length === 1 ? '' : ','}${JSON.stringify(key)}:${canonicalJson(member)}`;
  }
  return `${out}}`;
}

/**
 * The object's keys in the order `sort()` gives (by UTF-16 code units, as `<` compares strings). Objects
 * of a few keys, which are most, are sorted in place by insertion: `Array.prototype.sort` allocates a
 * work area of some kilobytes on each call, and a seed sorts the keys of every message of a request.
 */
export function sortedKeys(record: Record<string, unknown>): string[] {
  const keys = Object.keys(record);
  if (keys.length > 16) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!;
    let j = i - 1;
    for (; j >= 0 && key < keys[j]!; j--) keys[j + 1] = keys[j]!;
    keys[j + 1] = key;
  }
  return keys;
}

/**
 * Whether `JSON.stringify` writes this UTF-16 code unit escaped in a string: the controls, `"` and `\`, and a
 * surrogate (escaped when it is alone; a string that has one takes JSON.stringify's own path). Code that writes
 * or hashes a string's JSON without calling JSON.stringify (a call costs some 50 ns before it writes anything)
 * passes the string through as it is while this is false for every unit.
 *
 * @example
 * escapedInJson('"'.charCodeAt(0)); // true
 */
export function escapedInJson(code: number): boolean {
  return code < 0x20 || code === 0x22 || code === 0x5c || (code >= 0xd800 && code <= 0xdfff);
}
