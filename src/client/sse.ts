/**
 * The project's one server-sent event reader, decoded in layers: bytes → text (TextDecoder) → events
 * (eventsource-parser). `readEvents` reads a live stream, in browsers and in Node; `parseEventStream` reads a
 * whole stream's text strictly, reporting the framing problems a lenient parser would hide (for the
 * conformance suite and the tests).
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';

/**
 * Yields each event of `body` as soon as its blank line arrives. Stopping early (a `break` in the caller)
 * cancels the body, which lets the connection go.
 *
 * @example
 *   for await (const event of readEvents(response.body!)) console.log(event.data);
 */
export async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<EventSourceMessage> {
  const ready: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => ready.push(event) });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
      yield* ready.splice(0);
    }
    finished = true;
    // An event without its closing blank line is incomplete: the parser keeps it back, as EventSource does.
    parser.feed(decoder.decode());
    yield* ready.splice(0);
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

export interface ParsedStream {
  /** The `data` of each event, in order. */
  events: string[];
  /** Framing problems, one sentence each. */
  problems: string[];
}

/** One event with its name (`event:` line), as Anthropic's streams send them. */
export interface NamedEvent {
  event: string | undefined;
  data: string;
}

/** The events of a stream and its framing problems; `event:` lines are a problem unless `named`. */
function parse(text: string, named: boolean): { events: NamedEvent[]; problems: string[] } {
  const events: NamedEvent[] = [];
  const problems: string[] = [];
  const parser = createParser({
    onEvent: (e) => events.push({ event: e.event, data: e.data }),
    // Unknown fields are reported below, line by line.
    onError: (e) => e.type !== 'unknown-field' && problems.push(`unparseable event stream: ${e.message}`),
  });
  parser.feed(text);
  const before = events.length;
  // A blank line dispatches a pending event: if one comes out now, the stream did not end its last event.
  parser.feed('\n\n');
  if (events.length > before) problems.push('the last event is not followed by a blank line');
  text.split(/\r\n|\r|\n/).forEach((line, i) => {
    if (line === '' || line.startsWith(':') || line.startsWith('data:') || (named && line.startsWith('event:'))) return;
    problems.push(`line ${i + 1} is not a ${named ? 'data or event' : 'data'} line: ${JSON.stringify(line.slice(0, 80))}`);
  });
  return { events, problems: [...new Set(problems)].slice(0, 5) };
}

/**
 * A whole event stream's text, read as an OpenAI client reads it, plus what a lenient parser would let
 * through: lines that are neither `data:` nor a comment (the specification calls the stream "data-only"),
 * and a last event without its blank line.
 *
 * @example
 * parseEventStream('data: {"a":1}\n\ndata: [DONE]\n\n'); // { events: ['{"a":1}', '[DONE]'], problems: [] }
 */
export function parseEventStream(text: string): ParsedStream {
  const { events, problems } = parse(text, false);
  return { events: events.map((e) => e.data), problems };
}

/**
 * A whole event stream of named events (`event:` and `data:` lines, Anthropic's framing), with the same
 * framing checks.
 *
 * @example
 * parseNamedEventStream('event: ping\ndata: {"type":"ping"}\n\n'); // { events: [{ event: 'ping', data: '{"type":"ping"}' }], problems: [] }
 */
export function parseNamedEventStream(text: string): { events: NamedEvent[]; problems: string[] } {
  return parse(text, true);
}
