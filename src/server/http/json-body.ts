/**
 * The one JSON body parser (decision D24). `JSON.parse` alone reads `1e309` as Infinity and keeps the last
 * of two equal keys; a body that depends on either would be understood one way here and another way
 * elsewhere, so both are refused with a 400 that says where.
 */
import { invalidRequest } from '../domain/errors.ts';

/**
 * The request body as JSON, or an invalid_request error: empty, malformed, a number too large for a
 * double, or an object with the same key twice.
 *
 * @example
 * parseJsonBody('{"max_tokens": 1e309}'); // throws: … 'max_tokens' is a number too large …
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') throw invalidRequest('Request body is empty; send a JSON object.');
  let value: unknown;
  try {
    // A number overflows only with an exponent of three digits or 309 digits in a row: only then is the
    // (slower) reviver needed.
    value = /\d[eE]\+?\d{3}|\d{309}/.test(text) ? JSON.parse(text, refuseInfinity) : JSON.parse(text);
  } catch (error) {
    if (error instanceof NonFinite) throw invalidRequest(error.message);
    throw invalidRequest(`Request body is not valid JSON: ${(error as Error).message}.`);
  }
  const repeated = repeatedKey(text);
  if (repeated !== undefined) throw invalidRequest(`Request body has the key '${repeated}' twice in one object; send each key once.`);
  return value;
}

class NonFinite extends Error {}

function refuseInfinity(key: string, value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new NonFinite(`Request body has a number too large to represent${key === '' ? '' : ` at '${key}'`}; numbers must be finite.`);
  }
  return value;
}

/**
 * The first key that appears twice in one object of a well-formed JSON text, or undefined. One pass: each
 * string is skipped by searching for its closing quote, and each open object keeps the set of its keys.
 */
function repeatedKey(text: string): string | undefined {
  const objects: Array<Set<string> | null> = []; // null for an array
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const end = closingQuote(text, i);
      const keys = objects[objects.length - 1];
      if (expectKey && keys) {
        const raw = text.slice(i, end + 1);
        const key = raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
        if (keys.has(key)) return key;
        keys.add(key);
        expectKey = false;
      }
      i = end;
    } else if (c === 0x7b /* { */) {
      objects.push(new Set());
      expectKey = true;
    } else if (c === 0x5b /* [ */) {
      objects.push(null);
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      objects.pop();
    } else if (c === 0x2c /* , */) {
      expectKey = objects[objects.length - 1] != null;
    }
  }
  return undefined;
}

/** Where the string that opens at `start` closes: the next quote not escaped by an odd run of backslashes. */
function closingQuote(text: string, start: number): number {
  let at = start;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at < 0) return text.length; // cannot happen in text JSON.parse accepted
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}
