/**
 * The one JSON body reader and parser.
 *
 * Reading (decision D22): the body's bytes are counted and its JSON structure scanned as each chunk
 * arrives (json-structure.ts), so a body over a limit is refused with a 413 as soon as it passes it,
 * without being held whole or parsed.
 *
 * Parsing (decision D24): `JSON.parse` alone reads `1e309` as Infinity and keeps the last of two equal keys;
 * a body that depends on either would be understood one way here and another way elsewhere, so both are
 * refused with a 400 that says where.
 */
import type { Readable } from 'node:stream';
import { invalidRequest, tooLarge, type GatewayError } from '../domain/errors.ts';
import { bodyLimits, JsonStructure, type BodyLimits } from './json-structure.ts';

/** The 413 of a body over the byte limit. */
export function bodyTooLarge(limits: BodyLimits = bodyLimits): GatewayError {
  return tooLarge(`Request body is larger than ${limits.bytes} bytes.`);
}

/**
 * The text of a JSON request body, read from `payload` within `limits`: refused as soon as its declared or
 * received length passes the byte limit, or its structure the value or depth limit; a 400 when it ends
 * short of its declared length or breaks off.
 *
 * @example
 * const text = await readJsonBody(request.raw, request.headers['content-length']);
 */
export function readJsonBody(payload: Readable, contentLength: string | undefined, limits: BodyLimits = bodyLimits): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = contentLength === undefined ? Number.NaN : Number(contentLength);
    if (declared > limits.bytes) {
      reject(bodyTooLarge(limits));
      return;
    }
    const structure = new JsonStructure(limits);
    const chunks: Buffer[] = [];
    let received = 0;
    const finish = (error: Error | undefined) => {
      payload.off('data', onData);
      payload.off('end', onEnd);
      payload.off('error', onError);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks, received).toString('utf8'));
    };
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      received += bytes.length;
      if (received > limits.bytes) return finish(bodyTooLarge(limits));
      try {
        structure.push(bytes);
      } catch (error) {
        return finish(error as Error);
      }
      chunks.push(bytes);
    };
    const onEnd = () => {
      if (!Number.isNaN(declared) && received !== declared) {
        finish(invalidRequest(`Request body has ${received} bytes, not the ${declared} its Content-Length announced.`));
      } else {
        finish(undefined);
      }
    };
    const onError = (error: Error) => finish(invalidRequest(`Request body could not be read: ${error.message}.`));
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onError);
    payload.resume();
  });
}

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
 * The first key that appears twice in one object of a well-formed JSON text, or undefined. One pass over the
 * characters, strings skipped whole: each open object keeps the set of its keys. (Character codes, not an
 * expression for the structural characters: each run of an expression costs far more than a comparison, and
 * leaves a store V8's collector tracks, for each of a body's dozens of them.)
 */
function repeatedKey(text: string): string | undefined {
  const objects: Array<Set<string> | null> = []; // null for an array
  let expectKey = false;
  for (let at = 0; at < text.length; at++) {
    const c = text.charCodeAt(at);
    if (c === 0x22 /* " */) {
      const end = closingQuote(text, at);
      const keys = objects[objects.length - 1];
      if (expectKey && keys) {
        const raw = text.slice(at, end + 1);
        const key = raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
        if (keys.has(key)) return key;
        keys.add(key);
        expectKey = false;
      }
      at = end;
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
    if (at < 0) return text.length; // an unterminated string: JSON.parse reports it
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}
