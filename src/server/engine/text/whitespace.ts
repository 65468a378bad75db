/**
 * Whitespace as regular expressions and `trim` see it, tested a code unit at a time: the engine's hot
 * loops (tokens.ts, subject.ts) scan text with charCodeAt instead of running `\s` expressions.
 */

/**
 * Whether a UTF-16 code unit is whitespace for `\s` (and for `String.prototype.trim`).
 *
 * @example
 * isSpace(' '.charCodeAt(0)); // true
 * isSpace('\u00a0'.charCodeAt(0)); // true
 * isSpace('a'.charCodeAt(0)); // false
 */
export function isSpace(code: number): boolean {
  if (code === 32 || (code >= 9 && code <= 13)) return true;
  if (code < 160) return false;
  return (
    code === 160 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 ||
    code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff
  );
}
