/**
 * Feeding the upstream protocol modules in tests: the vendors' published examples (fixtures/), read with
 * the project's own server-sent-event parsers, and streams whose pace the test controls.
 */
import { readFileSync } from 'node:fs';
import { parseNamedEventStream, readEvents } from '../../src/client/sse.ts';
import type { AnswerEvent } from '../../src/server/domain/answer-events.ts';
import { UpstreamError } from '../../src/server/upstream/errors.ts';
import type { UpstreamEvent } from '../../src/server/upstream/protocols/index.ts';

const fixtures = new URL('./fixtures/', import.meta.url);

export function fixtureText(name: string): string {
  return readFileSync(new URL(name, fixtures), 'utf8');
}

export function fixtureJson<T = any>(name: string): T {
  return JSON.parse(fixtureText(name)) as T;
}

/** A fixture stream's events, parsed strictly: a framing problem in the fixture fails the test. */
export function fixtureEvents(name: string): UpstreamEvent[] {
  const { events, problems } = parseNamedEventStream(fixtureText(name));
  if (problems.length > 0) throw new Error(`${name} is not a well-framed event stream: ${problems.join('; ')}`);
  return events.map(({ event, data }) => (event === undefined ? { data } : { event, data }));
}

/** One event written as an upstream sends it (a `.json` fixture is an event's data). */
export function eventOf(data: unknown): UpstreamEvent {
  const type = typeof data === 'object' && data !== null && 'type' in data ? String(data.type) : undefined;
  return { ...(type !== undefined && { event: type }), data: JSON.stringify(data) };
}

export async function* feed(events: readonly UpstreamEvent[]): AsyncGenerator<UpstreamEvent> {
  for (const event of events) yield event;
}

/**
 * A stream's text as an upstream body brings it: bytes in pieces of `pieceSize` (cutting events and UTF-8
 * characters anywhere), read by the project's one reader.
 */
export function bodyEvents(text: string, pieceSize: number): AsyncIterable<UpstreamEvent> {
  const bytes = new TextEncoder().encode(text);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < bytes.length; at += pieceSize) controller.enqueue(bytes.slice(at, at + pieceSize));
      controller.close();
    },
  });
  return readEvents(body);
}

/**
 * A stream the test holds back: the first `before` events go at once, the rest only after `release()`.
 * `fed` says how many events the reader has taken so far.
 */
export function heldStream(events: readonly UpstreamEvent[], before: number) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const state = { fed: 0 };
  async function* stream(): AsyncGenerator<UpstreamEvent> {
    for (const [i, event] of events.entries()) {
      if (i === before) await released;
      state.fed++;
      yield event;
    }
  }
  return { events: stream(), release, get fed() { return state.fed; } };
}

/** Fails when `promise` has not settled within `ms`: a step that waits for more of the stream never comes. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Every step of a stream that must end well. */
export async function stepsOf(steps: AsyncIterable<AnswerEvent>): Promise<AnswerEvent[]> {
  const all: AnswerEvent[] = [];
  for await (const step of steps) all.push(step);
  return all;
}

/** The steps a stream made before it failed, and its UpstreamError (the test fails if it did not fail). */
export async function stepsThenError(steps: AsyncIterable<AnswerEvent>): Promise<{ steps: AnswerEvent[]; error: UpstreamError }> {
  const all: AnswerEvent[] = [];
  try {
    for await (const step of steps) all.push(step);
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    return { steps: all, error };
  }
  throw new Error(`the stream ended well after ${all.length} steps; an UpstreamError was expected`);
}

/** The UpstreamError `run` throws (the test fails if it throws nothing or something else). */
export function upstreamErrorOf(run: () => unknown): UpstreamError {
  try {
    run();
  } catch (error) {
    if (error instanceof UpstreamError) return error;
    throw error;
  }
  throw new Error('an UpstreamError was expected');
}
