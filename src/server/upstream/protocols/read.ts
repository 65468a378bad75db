/**
 * Reading what an upstream sent: JSON values are checked where they are used, never trusted to have the
 * shape its protocol documents, so that a wrong answer is a `malformed` upstream error and not a crash.
 */
import { malformed } from './failures.ts';

export type Json = Record<string, unknown>;

export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** At most this much of a bad event is quoted in an error: enough to recognise it, never a whole body. */
const QUOTED = 120;

/**
 * An event's `data` as the JSON object it must be.
 *
 * @example
 * eventJson('{"type":"ping"}', 'Anthropic Messages'); // { type: 'ping' }
 */
export function eventJson(data: string, protocol: string): Json {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    throw malformed(protocol, `an event that is not JSON: ${JSON.stringify(data.slice(0, QUOTED))}`);
  }
  if (!isRecord(value)) throw malformed(protocol, `an event that is not a JSON object: ${JSON.stringify(data.slice(0, QUOTED))}`);
  return value;
}

/**
 * Token counts the upstream did not report are -1: the caller counts them with the gateway's own
 * tokenizer (billing must not be zero because an upstream kept quiet).
 */
export const UNCOUNTED = -1;

/** A reported token count, or UNCOUNTED when there is none (absent, null, or not a count). */
export function tokenCount(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : UNCOUNTED;
}

/** A string field, or `undefined` when it is absent or not a string. */
export function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
