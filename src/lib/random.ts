/**
 * The project's one seeded randomness: a string hash (cyrb53) and a small generator (mulberry32) fed by it.
 * The text engine, the image engine and the conformance suite's generated requests all draw from here, so
 * the same request (or `--seed`) gives the same answer on every machine and Node version. Nothing here reads
 * the clock or Math.random.
 */

const M1 = 2654435761;
const M2 = 1597334677;

/**
 * A 53-bit hash of a string (cyrb53): cheap, well mixed, and stable across Node versions.
 *
 * @example
 * hashString('hello') === hashString('hello'); // true
 * hashString('hello', 1) !== hashString('hello'); // a salt gives another, independent hash
 */
export function hashString(text: string, salt = 0): number {
  let h1 = 0xdeadbeef ^ salt;
  let h2 = 0x41c6ce57 ^ salt;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, M1);
    h2 = Math.imul(h2 ^ ch, M2);
  }
  return finish(h1, h2);
}

/**
 * A 53-bit hash of bytes, the same mixing as `hashString` with one step per byte (a picture's pixels).
 *
 * @example
 * hashBytes(new Uint8Array([1, 2, 3]));
 */
export function hashBytes(bytes: Uint8Array, salt = 0): number {
  let h1 = 0xdeadbeef ^ salt;
  let h2 = 0x41c6ce57 ^ salt;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    h1 = Math.imul(h1 ^ b, M1);
    h2 = Math.imul(h2 ^ b, M2);
  }
  return finish(h1, h2);
}

/**
 * A 53-bit hash of several parts, each length-prefixed so that ('ab', 'c') and ('a', 'bc') differ: the seed
 * of one picture or one answer from what it depends on.
 *
 * @example
 * new Rng(hashParts('generate', 'a lighthouse', 512, 512, 0));
 */
export function hashParts(...parts: Array<string | number>): number {
  let text = '';
  for (const part of parts) {
    const piece = String(part);
    text += `${piece.length}:${piece}`;
  }
  return hashString(text);
}

function finish(h1: number, h2: number): number {
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/**
 * A seeded generator (mulberry32) with the few draws the project needs.
 *
 * @example
 * const rng = new Rng(hashString('a lighthouse'));
 * rng.int(1, 6); // the same number for the same seed, every run
 */
export class Rng {
  private state: number;

  /** Any number; a 53-bit hash is folded to 32 bits without losing its high part. */
  constructor(seed: number) {
    this.state = (seed ^ Math.floor(seed / 4294967296)) >>> 0;
  }

  /** A float in [0, 1). */
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

  /** A float in [low, high). */
  range(low: number, high: number): number {
    return low + (high - low) * this.next();
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Rng.pick needs a non-empty list.');
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
