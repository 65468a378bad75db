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
  const keys = Object.keys(record);
  // Most objects arrive with few keys, often in order already; `<` orders strings as sort() does.
  let sorted = true;
  for (let i = 1; i < keys.length; i++) {
    if ((keys[i - 1] as string) > (keys[i] as string)) {
      sorted = false;
      break;
    }
  }
  if (!sorted) keys.sort();
  let out = '{';
  for (const key of keys) {
    const member = record[key];
    if (member === undefined) continue;
    out += `${out.length === 1 ? '' : ','}${JSON.stringify(key)}:${canonicalJson(member)}`;
  }
  return `${out}}`;
}

/**
 * A 53-bit string hash (cyrb53): cheap, well mixed, and stable across Node versions.
 *
 * @example
 * hashString('hello') === hashString('hello'); // true
 */
export function hashString(text: string, salt = 0): number {
  let h1 = 0xdeadbeef ^ salt;
  let h2 = 0x41c6ce57 ^ salt;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
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
