/**
 * Reading a server-sent event stream the way an OpenAI client does: events from `eventsource-parser`,
 * plus the framing problems a lenient parser would hide (lines that are neither `data:` nor a comment,
 * since the specification calls the stream "data-only", and a last event without its blank line).
 */
import { createParser } from 'eventsource-parser';

export interface ParsedStream {
  /** The `data` of each event, in order. */
  events: string[];
  /** Framing problems, one sentence each. */
  problems: string[];
}

/**
 * @example
 * parseEventStream('data: {"a":1}\n\ndata: [DONE]\n\n'); // { events: ['{"a":1}', '[DONE]'], problems: [] }
 */
export function parseEventStream(text: string): ParsedStream {
  const events: string[] = [];
  const problems: string[] = [];
  const parser = createParser({
    onEvent: (e) => events.push(e.data),
    // Unknown fields are reported below, line by line.
    onError: (e) => e.type !== 'unknown-field' && problems.push(`unparseable event stream: ${e.message}`),
  });
  parser.feed(text);
  const before = events.length;
  // A blank line dispatches a pending event: if one comes out now, the stream did not end its last event.
  parser.feed('\n\n');
  if (events.length > before) problems.push('the last event is not followed by a blank line');
  text.split(/\r\n|\r|\n/).forEach((line, i) => {
    if (line === '' || line.startsWith(':') || line.startsWith('data:')) return;
    problems.push(`line ${i + 1} is not a data line: ${JSON.stringify(line.slice(0, 80))}`);
  });
  return { events, problems: [...new Set(problems)].slice(0, 5) };
}
