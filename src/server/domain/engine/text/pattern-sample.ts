/**
 * A string that matches a simple regular expression (the `pattern` keyword): literals, escapes, classes,
 * groups with alternatives, and quantifiers, taking the shortest choice everywhere. Patterns beyond that
 * give a best effort that is checked against the pattern.
 */
import { toolLimits } from './limits.ts';
import { linearRegExp } from './linear-regexp.ts';

const NEGATED_CANDIDATES = ['a', 'A', '0', 'x', '_', '-', ' ', '.'];

/** The longest sample made: beyond it (a{100000000}) the pattern is not sampled (the `minLength` limit, D22). */
const MAX_SAMPLE = toolLimits.minLength;

const CLASS_ESCAPES: Record<string, string> = { d: '1', w: 'a', s: ' ', D: 'a', W: '-', S: 'a', n: '\n', t: '\t', r: '\r' };

class Sampler {
  private i = 0;
  constructor(private readonly source: string) {}

  /** A sequence up to `)` or the end, taking the first alternative of a `|`. */
  sequence(): string {
    let out = '';
    while (this.i < this.source.length) {
      const c = this.source[this.i] as string;
      if (c === ')') return out;
      if (c === '|') {
        this.skipAlternatives();
        return out;
      }
      const atom = this.atom();
      out += this.repeat(atom);
      if (out.length > MAX_SAMPLE) throw new RangeError('the pattern asks for too long a string');
    }
    return out;
  }

  private skipAlternatives(): void {
    let depth = 0;
    while (this.i < this.source.length) {
      const c = this.source[this.i];
      if (c === '\\') this.i++;
      else if (c === '[') this.skipClass();
      else if (c === '(') depth++;
      else if (c === ')') {
        if (depth === 0) return;
        depth--;
      }
      this.i++;
    }
  }

  private skipClass(): void {
    this.i++;
    while (this.i < this.source.length && this.source[this.i] !== ']') {
      if (this.source[this.i] === '\\') this.i++;
      this.i++;
    }
  }

  private atom(): string {
    const c = this.source[this.i++] as string;
    switch (c) {
      case '^':
      case '$':
        return '';
      case '.':
        return 'a';
      case '\\':
        return this.escape();
      case '[':
        return this.characterClass();
      case '(': {
        let lookaround = false;
        if (this.source[this.i] === '?') {
          const head = /^\?(?::|=|!|<=|<!|<[^>]*>)/.exec(this.source.slice(this.i))?.[0] ?? '?';
          lookaround = /^\?(?:=|!|<=|<!)$/.test(head);
          this.i += head.length;
        }
        const inner = this.sequence();
        this.i++; // ')'
        return lookaround ? '' : inner;
      }
      default:
        return c;
    }
  }

  private escape(): string {
    const c = this.source[this.i++] ?? '';
    if (c in CLASS_ESCAPES) return CLASS_ESCAPES[c] as string;
    if (c === 'b' || c === 'B') return '';
    if (c === 'u' || c === 'x') {
      const braced = this.source[this.i] === '{';
      const end = braced ? this.source.indexOf('}', this.i) : this.i + (c === 'u' ? 4 : 2);
      const hex = this.source.slice(braced ? this.i + 1 : this.i, end);
      this.i = braced ? end + 1 : end;
      return String.fromCodePoint(parseInt(hex, 16) || 97);
    }
    return c;
  }

  private characterClass(): string {
    const negated = this.source[this.i] === '^';
    if (negated) this.i++;
    const members: Array<[string, string]> = [];
    let first = true;
    while (this.i < this.source.length && (this.source[this.i] !== ']' || first)) {
      first = false;
      let low = this.source[this.i++] as string;
      if (low === '\\') low = this.escape();
      let high = low;
      if (this.source[this.i] === '-' && this.source[this.i + 1] !== ']' && this.i + 1 < this.source.length) {
        this.i++;
        high = this.source[this.i++] as string;
        if (high === '\\') high = this.escape();
      }
      members.push([low, high]);
    }
    this.i++; // ']'
    if (!negated) return members[0]?.[0] ?? 'a';
    const inside = (ch: string): boolean => members.some(([low, high]) => ch >= low && ch <= high);
    return NEGATED_CANDIDATES.find((ch) => !inside(ch)) ?? '~';
  }

  /** Applies a quantifier after an atom, taking its minimum count. */
  private repeat(atom: string): string {
    const c = this.source[this.i];
    let count = 1;
    if (c === '?' || c === '*') {
      count = 0;
      this.i++;
    } else if (c === '+') {
      this.i++;
    } else if (c === '{') {
      const match = /^\{(\d+)(,\d*)?\}/.exec(this.source.slice(this.i));
      if (match) {
        count = Number(match[1]);
        this.i += match[0].length;
      }
    } else {
      return atom;
    }
    if (this.source[this.i] === '?' || this.source[this.i] === '+') this.i++; // lazy or possessive
    if (atom.length * count > MAX_SAMPLE) throw new RangeError('the pattern asks for too long a string');
    return atom.repeat(count);
  }
}

/**
 * The shortest simple string for a pattern, or undefined when the result does not match it (checked in
 * linear time: see linear-regexp.ts) or the pattern cannot be read.
 *
 * @example
 * sampleFromPattern('^[A-Z]{3}$'); // 'AAA'
 */
export function sampleFromPattern(pattern: string): string | undefined {
  try {
    const sample = new Sampler(pattern).sequence();
    return linearRegExp(pattern).test(sample) ? sample : undefined;
  } catch {
    return undefined;
  }
}
