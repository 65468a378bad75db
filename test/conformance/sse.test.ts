import { describe, expect, it } from 'vitest';
import { parseEventStream } from '../../src/client/sse.ts';

describe('parseEventStream', () => {
  it('reads data-only events', () => {
    expect(parseEventStream('data: {"a":1}\n\n: comment\n\ndata: [DONE]\n\n')).toEqual({ events: ['{"a":1}', '[DONE]'], problems: [] });
  });

  it('notices a last event without its blank line', () => {
    const { events, problems } = parseEventStream('data: {"a":1}\n\ndata: [DONE]\n');
    expect(events).toEqual(['{"a":1}', '[DONE]']);
    expect(problems).toEqual(['the last event is not followed by a blank line']);
  });

  it('notices lines that are not data lines', () => {
    const { problems } = parseEventStream('event: delta\ndata: {}\n\n{"raw":true}\n\n');
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/line 1 is not a data line/);
  });
});
