/**
 * The project's one seeded randomness: a string hash (cyrb53) and a small generator (mulberry32) fed by it.
 * The text engine, the image engine and the conformance suite's generated requests all draw from here, so
 * the same request (or `--seed`) gives the same answer on every machine and Node version. Nothing here reads
 * the clock or Math.random.
 */
import { escapedInJson, writeCanonical, type CanonicalWriter } from './canonical-json.ts';

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

/**
 * `hashString(canonicalJson(value), salt)` for two salts at once, computed while walking the value instead
 * of building its canonical JSON first: an answer's two seeds come from its whole request, on every request,
 * and building the string costs several times the walk. The walk is canonicalJson's own (`writeCanonical`);
 * the hashes see exactly the characters it writes (test/lib/random.test.ts compares the two).
 *
 * @example
 * const [a, b] = hashCanonical({ b: 1, a: 2 }, 1, 2);
 * a === hashString('{"a":2,"b":1}', 1); // true
 */
export function hashCanonical(value: unknown, saltA: number, saltB: number): [number, number] {
  const hash = new CanonicalHash(saltA, saltB);
  writeCanonical(value, hash);
  return [finish(hash.a1, hash.a2), finish(hash.b1, hash.b2)];
}

/** Two cyrb53 states (two salts), fed the characters of a value's canonical JSON by `writeCanonical`. */
class CanonicalHash implements CanonicalWriter {
  a1: number;
  a2: number;
  b1: number;
  b2: number;

  constructor(saltA: number, saltB: number) {
    this.a1 = 0xdeadbeef ^ saltA;
    this.a2 = 0x41c6ce57 ^ saltA;
    this.b1 = 0xdeadbeef ^ saltB;
    this.b2 = 0x41c6ce57 ^ saltB;
  }

  char(ch: number): void {
    this.a1 = Math.imul(this.a1 ^ ch, M1);
    this.a2 = Math.imul(this.a2 ^ ch, M2);
    this.b1 = Math.imul(this.b1 ^ ch, M1);
    this.b2 = Math.imul(this.b2 ^ ch, M2);
  }

  /** The characters of `text`, the states in locals meanwhile. */
  text(text: string): void {
    let { a1, a2, b1, b2 } = this;
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      a1 = Math.imul(a1 ^ ch, M1);
      a2 = Math.imul(a2 ^ ch, M2);
      b1 = Math.imul(b1 ^ ch, M1);
      b2 = Math.imul(b2 ^ ch, M2);
    }
    this.a1 = a1;
    this.a2 = a2;
    this.b1 = b1;
    this.b2 = b2;
  }

  /**
   * A string as JSON.stringify writes it: in one pass when nothing in it is escaped (almost always); at the
   * first character that is, the states are left as they were and the quoted copy is hashed instead.
   */
  string(text: string): void {
    let a1 = Math.imul(this.a1 ^ 34, M1); // "
    let a2 = Math.imul(this.a2 ^ 34, M2);
    let b1 = Math.imul(this.b1 ^ 34, M1);
    let b2 = Math.imul(this.b2 ^ 34, M2);
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      if (escapedInJson(ch)) {
        this.text(JSON.stringify(text));
        return;
      }
      a1 = Math.imul(a1 ^ ch, M1);
      a2 = Math.imul(a2 ^ ch, M2);
      b1 = Math.imul(b1 ^ ch, M1);
      b2 = Math.imul(b2 ^ ch, M2);
    }
    this.a1 = Math.imul(a1 ^ 34, M1);
    this.a2 = Math.imul(a2 ^ 34, M2);
    this.b1 = Math.imul(b1 ^ 34, M1);
    this.b2 = Math.imul(b2 ^ 34, M2);
  }
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
