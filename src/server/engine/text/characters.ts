/**
 * Classes of characters tested a code unit at a time: the engine's hot loops (tokens.ts, subject.ts,
 * ascii-chunks.ts) scan text with charCodeAt instead of running expressions such as `\s` or `\d`.
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

/** `0`–`9`: what `\d` matches without the u flag. */
export function isAsciiDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** `0`–`9`, `A`–`Z`, `a`–`z`: the letters and numbers (`\p{L}`, `\p{N}`) of ASCII. */
export function isAsciiAlphanumeric(code: number): boolean {
  return isAsciiDigit(code) || ((code | 0x20) >= 97 && (code | 0x20) <= 122);
}

/** True when every character of the text is ASCII. */
export function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 127) return false;
  return true;
}
