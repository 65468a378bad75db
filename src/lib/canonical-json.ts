/**
 * JSON with object keys sorted: two values that differ only in key order give the same text, so they hash
 * and compare alike (the seed of an answer, a cache key, `const`/`enum` comparisons).
 */

/**
 * @example
 * canonicalJson({ b: 1, a: [true, null] }); // '{"a":[true,null],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  const writer = new StringWriter();
  writeCanonical(value, writer);
  return writer.out;
}

/**
 * Where `writeCanonical` writes a value's canonical JSON, piece by piece: a string (`canonicalJson`), or a hash
 * of its characters made without the string (`hashCanonical` in random.ts, an answer's seeds).
 */
export interface CanonicalWriter {
  /** One of `[ ] { } , :`, by its code. */
  char(code: number): void;
  /** A number, `true`, `false` or `null`, as written. */
  text(text: string): void;
  /** A string (a value or a key), to be written as `JSON.stringify` writes it. */
  string(text: string): void;
}

/**
 * The one walk of a value in canonical order: object keys sorted (`sortedKeys`), members that are undefined
 * left out; undefined (absent), functions and non-finite numbers written like null, as JSON.stringify does
 * inside an array.
 */
export function writeCanonical(value: unknown, out: CanonicalWriter): void {
  switch (typeof value) {
    case 'string':
      return out.string(value);
    case 'boolean':
      return out.text(value ? 'true' : 'false');
    case 'number':
      // As JSON.stringify writes a number: String(n) for finite ones (-0 too), null for the rest.
      return out.text(Number.isFinite(value) ? String(value) : 'null');
    case 'object':
      break;
    default:
      // undefined, functions, symbols: null; a bigint throws, as in JSON.stringify.
      return out.text(JSON.stringify(value) ?? 'null');
  }
  if (value === null) return out.text('null');
  if (Array.isArray(value)) {
    out.char(0x5b); // [
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.char(0x2c); // ,
      writeCanonical(value[i], out);
    }
    out.char(0x5d); // ]
    return;
  }
  const record = value as Record<string, unknown>;
  const keys = sortedKeys(record);
  out.char(0x7b); // {
  let first = true;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const member = record[key];
    if (member === undefined) continue;
    if (!first) out.char(0x2c); // ,
    first = false;
    out.string(key);
    out.char(0x3a); // :
    writeCanonical(member, out);
  }
  out.char(0x7d); // }
}

/** Canonical JSON as a string: the pieces appended as they come (no intermediate arrays). */
class StringWriter implements CanonicalWriter {
  out = '';

  char(code: number): void {
    this.out += String.fromCharCode(code);
  }

  text(text: string): void {
    this.out += text;
  }

  string(text: string): void {
    this.out += JSON.stringify(text);
  }
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
