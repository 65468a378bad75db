// What every text upstream protocol module does alike, each on its vendor's documented stream: the steps come
// as the events arrive (never held for the end), the last step is the end, a stream cut before its end event
// or carrying an event that is not JSON fails after the steps already made, and the catalogue's names find
// each module.
import { describe, expect, it } from 'vitest';
import { textProtocols, type TextProtocolName } from '../../src/server/upstream/protocols/index.ts';
import * as anthropicMessages from '../../src/server/upstream/protocols/anthropic-messages.ts';
import * as openaiChat from '../../src/server/upstream/protocols/openai-chat.ts';
import * as openaiResponses from '../../src/server/upstream/protocols/openai-responses.ts';
import { fixtureEvents, fixtureText, bodyEvents, feed, heldStream, stepsOf, stepsThenError, within } from './streams.ts';

/** Each protocol's documented text stream, and the text its deltas add up to. */
const cases: Array<{ name: TextProtocolName; stream: string; text: string }> = [
  { name: 'openai-chat', stream: 'openai-chat/stream.sse', text: 'Hello' },
  { name: 'openai-responses', stream: 'openai-responses/stream.sse', text: 'Hi there! How can I assist you today?' },
  { name: 'anthropic-messages', stream: 'anthropic-messages/stream.sse', text: 'Hello!' },
];

/** The index of the first event whose data holds `piece` (where the first text delta is). */
function indexOf(events: ReadonlyArray<{ data: string }>, piece: string): number {
  const at = events.findIndex((e) => e.data.includes(piece));
  if (at < 0) throw new Error(`no event holds ${piece}`);
  return at;
}

describe('the text upstream protocols', () => {
  it('are found by the names the catalogue gives them', () => {
    expect(textProtocols['openai-chat']).toBe(openaiChat);
    expect(textProtocols['openai-responses']).toBe(openaiResponses);
    expect(textProtocols['anthropic-messages']).toBe(anthropicMessages);
  });

  describe.each(cases)('$name', ({ name, stream, text }) => {
    const protocol = textProtocols[name];
    const events = fixtureEvents(stream);
    const firstDelta = indexOf(events, name === 'openai-responses' ? '"delta":"Hi"' : 'Hello');

    it('yields a text piece as soon as its event is read, before the rest of the stream is fed', async () => {
      const held = heldStream(events, firstDelta + 1);
      const steps = protocol.eventsFrom(held.events);
      const first = await within(steps.next(), 1000, 'the first text piece was not yielded before the rest of the stream');
      expect(first.value).toEqual({ type: 'text', text: name === 'openai-responses' ? 'Hi' : 'Hello' });
      expect(held.fed).toBe(firstDelta + 1);
      held.release();
      const rest = await stepsOf({ [Symbol.asyncIterator]: () => steps });
      expect(rest.at(-1)?.type).toBe('end');
      expect([first.value, ...rest].flatMap((s) => (s.type === 'text' ? [s.text] : [])).join('')).toBe(text);
    });

    it('reads the stream from its bytes through the project reader, whatever the pieces they come in', async () => {
      const whole = await stepsOf(protocol.eventsFrom(feed(events)));
      for (const size of [1, 7, 64]) expect(await stepsOf(protocol.eventsFrom(bodyEvents(fixtureText(stream), size)))).toEqual(whole);
    });

    it('ends with exactly one end step, the last', async () => {
      const steps = await stepsOf(protocol.eventsFrom(feed(events)));
      expect(steps.filter((s) => s.type === 'end')).toHaveLength(1);
      expect(steps.at(-1)?.type).toBe('end');
    });

    it('fails with `stream` when the stream stops before its end event, after the steps it made', async () => {
      const { steps, error } = await stepsThenError(protocol.eventsFrom(feed(events.slice(0, firstDelta + 1))));
      expect(steps).toEqual([{ type: 'text', text: name === 'openai-responses' ? 'Hi' : 'Hello' }]);
      expect(error.failure).toBe('stream');
      expect(error.message).toMatch(/ended before its .*incomplete/);
    });

    it('fails with `malformed` on an event that is not JSON, after the steps it made', async () => {
      const broken = [...events.slice(0, firstDelta + 1), { data: '{"type": "content_block_delta", "ind' }, ...events.slice(firstDelta + 1)];
      const { steps, error } = await stepsThenError(protocol.eventsFrom(feed(broken)));
      expect(steps).toHaveLength(1);
      expect(error.failure).toBe('malformed');
      expect(error.message).toContain('not JSON');
    });
  });
});
