/**
 * The engine's only source of randomness: a seeded PRNG fed by a hash of the request. Nothing here reads
 * the clock or Math.random, so the same request and seed always give the same answer.
 */

/**
 * JSON with object keys sorted, so two requests that differ only in key order hash the same.
 *
 * @example
 * canonicalJson({ b: 1, a: [true, null] }); // '{"a":[true,null],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  // One string built in place: this runs on every request, so no intermediate arrays.
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null || typeof value !== 'object') {
    // undefined (absent) and non-finite numbers have no JSON form; they hash like null.
    return JSON.stringify(value) ?? 'null';
  }
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

/** Objects with more keys than this are sorted by `Array.prototype.sort`, fewer by hand. */
const HAND_SORTED_KEYS = 16;

/**
 * An object's keys in the order `keys.sort()` gives (`<` orders strings the same way). Request objects
 * have a few keys each, and `sort()` allocates working arrays on every call (about 1 KB per object here,
 * on every request), so small lists are put in order by insertion, in place; large ones, where
 * insertion would cost the square of their length, are left to `sort()`.
 *
 * @example
 * sortedKeys({ role: 'user', content: 'Hi' }); // ['content', 'role']
 */
export function sortedKeys(record: object): string[] {
  const keys = Object.keys(record);
  if (keys.length > HAND_SORTED_KEYS) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i] as string;
    let j = i - 1;
    while (j >= 0 && (keys[j] as string) > key) {
      keys[j + 1] = keys[j] as string;
      j--;
    }
    keys[j + 1] = key;
  }
  return keys;
}

/**
 * A 53-bit string hash (cyrb53): cheap, well mixed, and stable across Node versions.
 *
 * @example
 * hashString('hello') === hashString('hello'); // true
 */
export function hashString(text: string, salt = 0): number {
  const hash = new Cyrb53(salt);
  hash.text(text);
  return hash.digest();
}

/**
 * `hashString(canonicalJson(value), salt)`, computed while walking the value instead of building the
 * string first: the seed of every answer comes from this, on every request. The hash sees exactly the
 * characters `canonicalJson` would write, so answers do not depend on which of the two made the seed
 * (`test/engine-text/random.test.ts` checks that they agree).
 *
 * @example
 * hashCanonical({ b: 1, a: 2 }, 3) === hashString('{"a":2,"b":1}', 3); // true
 */
export function hashCanonical(value: unknown, salt = 0): number {
  return canonicalDigest(value, salt).hash;
}

/** A value's canonical JSON, summed up: its hash and its length in characters, without the string. */
export interface CanonicalDigest {
  hash: number;
  length: number;
}

/**
 * `hashCanonical(value, salt)` and `canonicalJson(value).length` in one walk: the answer memo keys on the
 * first and uses the second to leave out very large requests.
 *
 * @example
 * canonicalDigest({ a: 1 }); // { hash: hashString('{"a":1}'), length: 7 }
 */
export function canonicalDigest(value: unknown, salt = 0): CanonicalDigest {
  const hash = new Cyrb53(salt);
  hash.canonicalJson(value);
  return { hash: hash.digest(), length: hash.length };
}

const M1 = 2654435761;
const M2 = 1597334677;

/** The cyrb53 hash, fed a piece at a time: a string, or a value as the characters of its canonical JSON. */
class Cyrb53 {
  private h1: number;
  private h2: number;
  /** Characters hashed so far. */
  length = 0;

  constructor(salt: number) {
    this.h1 = 0xdeadbeef ^ salt;
    this.h2 = 0x41c6ce57 ^ salt;
  }

  private char(ch: number): void {
    this.h1 = Math.imul(this.h1 ^ ch, M1);
    this.h2 = Math.imul(this.h2 ^ ch, M2);
    this.length++;
  }

  /** The characters of `text`, with the state in locals: strings are most of a request. */
  text(text: string): void {
    let { h1, h2 } = this;
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ ch, M1);
      h2 = Math.imul(h2 ^ ch, M2);
    }
    this.h1 = h1;
    this.h2 = h2;
    this.length += text.length;
  }

  /**
   * A string as JSON.stringify writes it, in one pass when nothing needs escaping (almost always); at the
   * first character that does, the state is left as it was and the quoted copy is hashed instead.
   */
  private string(text: string): void {
    let h1 = Math.imul(this.h1 ^ 34, M1); // "
    let h2 = Math.imul(this.h2 ^ 34, M2);
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      // Control characters, `"`, `\` and surrogates (a lone one is escaped) take JSON.stringify's path.
      if (ch < 0x20 || ch === 34 || ch === 92 || (ch >= 0xd800 && ch <= 0xdfff)) {
        this.text(JSON.stringify(text));
        return;
      }
      h1 = Math.imul(h1 ^ ch, M1);
      h2 = Math.imul(h2 ^ ch, M2);
    }
    this.h1 = Math.imul(h1 ^ 34, M1);
    this.h2 = Math.imul(h2 ^ 34, M2);
    this.length += text.length + 2;
  }

  /** The characters `canonicalJson(value)` would write, without writing them. */
  canonicalJson(value: unknown): void {
    switch (typeof value) {
      case 'string':
        return this.string(value);
      case 'boolean':
        return this.text(value ? 'true' : 'false');
      case 'number':
        // As JSON.stringify writes a number: String(n) for finite ones (-0 too), null for the rest.
        return this.text(Number.isFinite(value) ? String(value) : 'null');
      case 'object':
        break;
      default:
        return this.text(JSON.stringify(value) ?? 'null');
    }
    if (value === null) return this.text('null');
    if (Array.isArray(value)) {
      this.char(91); // [
      for (let i = 0; i < value.length; i++) {
        if (i > 0) this.char(44); // ,
        this.canonicalJson(value[i]);
      }
      this.char(93); // ]
      return;
    }
    const record = value as Record<string, unknown>;
    const keys = sortedKeys(record);
    this.char(123); // {
    let first = true;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      const member = record[key];
      if (member === undefined) continue;
      if (!first) this.char(44);
      first = false;
      this.string(key);
      this.char(58); // :
      this.canonicalJson(member);
    }
    this.char(125); // }
  }

  digest(): number {
    let { h1, h2 } = this;
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return 4294967296 * (2097151 & h2) + (h1 >>> 0);
  }
}

/** A small seeded generator (mulberry32) with the few draws the engine needs. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    // Fold a 53-bit hash into 32 bits without losing its high part.
    this.state = (seed ^ Math.floor(seed / 4294967296)) >>> 0;
  }

  /**
   * A float in [0, 1).
   *
   * @example
   * new Rng(1).next(); // always the same number for seed 1
   */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [low, high], both included. */
  int(low: number, high: number): number {
    return low + Math.floor(this.next() * (high - low + 1));
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** 24 lowercase hex digits, for ids such as `call_…`. */
  hex24(): string {
    let out = '';
    for (let i = 0; i < 3; i++) out += Math.floor(this.next() * 0x100000000).toString(16).padStart(8, '0');
    return out;
  }
}
