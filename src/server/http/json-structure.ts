/**
 * The body limits of decision D22 and the scanner that enforces them while a body arrives.
 *
 * `JSON.parse` runs on the event loop, and its cost grows with the number of values, not bytes: 20 MiB of
 * short distinct keys hold it for about two seconds, during which no other request is served. Nesting
 * matters on its own: 100,000 nested arrays parse in milliseconds but overflow the stack of whatever walks
 * them later (the copy to a worker thread, the validator). So each chunk of a body is scanned as it comes
 * in, and a body over a limit is refused at once: it is never held whole, nor parsed.
 */
import { gatewayDocument } from '../../contract/gateway-document.ts';
import { tooLarge } from '../domain/errors.ts';

export interface BodyLimits {
  /** Bytes of a request body. */
  bytes: number;
  /** JSON values: each object member and each array element counts one. */
  jsonValues: number;
  /** Levels of nested objects and arrays. */
  jsonDepth: number;
}

/** The reference's body limits, as the contract documents them (the 413 answer's `x-limits`). */
export const bodyLimits = (gatewayDocument.components.responses as unknown as Record<string, { 'x-limits': BodyLimits }>).PayloadTooLarge![
  'x-limits'
];

const number = (n: number) => n.toLocaleString('en-US');

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/**
 * Counts the values and the nesting of a JSON text given in pieces, in one pass over its bytes (the
 * structural characters are ASCII, and no byte of a multi-byte UTF-8 character is). On malformed JSON it
 * counts something close, and leaves the fault to `JSON.parse`.
 *
 * @example
 * const structure = new JsonStructure(bodyLimits);
 * structure.push(chunk); // throws a too_large error once a limit is passed
 */
export class JsonStructure {
  private values = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Right after `{` or `[`: the next significant byte is a first value, unless it closes the container. */
  private opened = false;

  constructor(private readonly limits: BodyLimits) {}

  push(bytes: Uint8Array): void {
    const { jsonDepth, jsonValues } = this.limits;
    // The state in locals while the bytes are read, written back once: a field read and written for each
    // byte cost several times the comparisons themselves, on every body.
    let { values, depth, inString, escaped, opened } = this;
    for (let i = 0; i < bytes.length; i++) {
      if (inString) {
        // Inside a string only `\` and `"` count: read to its end without the structural tests.
        for (; i < bytes.length; i++) {
          const c = bytes[i]!;
          if (escaped) escaped = false;
          else if (c === BACKSLASH) escaped = true;
          else if (c === QUOTE) {
            inString = false;
            break;
          }
        }
        continue;
      }
      const c = bytes[i]!;
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
      if (opened) {
        opened = false;
        if (c !== CLOSE_OBJECT && c !== CLOSE_ARRAY && ++values > jsonValues) this.tooManyValues(jsonValues);
      }
      if (c === QUOTE) {
        inString = true;
      } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        if (++depth > jsonDepth) {
          throw tooLarge(`Request body nests objects and arrays more than ${number(jsonDepth)} levels deep; send at most ${number(jsonDepth)}.`);
        }
        opened = true;
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        depth--;
      } else if (c === COMMA && ++values > jsonValues) {
        this.tooManyValues(jsonValues);
      }
    }
    this.values = values;
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    this.opened = opened;
  }

  private tooManyValues(jsonValues: number): never {
    throw tooLarge(
      `Request body holds more than ${number(jsonValues)} JSON values (each object member and array element counts one); send at most ${number(jsonValues)}.`,
    );
  }
}
