/**
 * Events serialised once and filled in per token (`eventTemplate`, and `streamTemplate` with a stream's head
 * put in first, http/sse.ts) are byte for byte the JSON of the events made one by one, whatever the values
 * hold; a shape that does not simply place its values is made one by one.
 */
import { describe, expect, it } from 'vitest';
import { eventTemplate, frame, streamTemplate } from '../../src/server/http/sse.ts';

const texts = ['Hi', ' there', '', '"quoted"', 'back\\slash', 'line\nbreak', '\u0000\u001f', 'émoji 😀', '\ud800', 'end \udfff', '</script>', '\u00000\u0000', '\u007f\u2028\u2029', ' ', '\t'];
const numbers = [0, -0, 7, -1.5, 1e21, 2 ** 53 + 2, Number.NaN, Number.POSITIVE_INFINITY];

describe('eventTemplate', () => {
  it('gives the JSON of the event made with each value, in the frame the stream sends', () => {
    const make = (text: string) => ({ id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: text }, finish_reason: null }] });
    const delta = eventTemplate(make);
    for (const text of texts) {
      expect(frame(delta(text))).toBe(`data: ${JSON.stringify(make(text))}\n\n`);
      expect(frame(delta(text))).toBe(frame({ data: make(text) }));
    }
  });

  it('tells a placeholder from a text that holds one\'s characters', () => {
    const make = (text: string) => ({ before: '\u0000', near: '\u00001', text, after: '\u00000\u0000 and more' });
    for (const text of texts) expect(frame(eventTemplate(make)(text))).toBe(frame({ data: make(text) }));
  });

  it('places several values, numbers among them, in whatever order the shape puts them, and names the event', () => {
    const make = (delta: string, sequence_number: number) => ({ type: 'response.output_text.delta', sequence_number, item_id: 'msg_1', delta, logprobs: [] });
    const event = eventTemplate(make, 'response.output_text.delta');
    for (const [i, text] of texts.entries()) {
      expect(frame(event(text, i * 1000))).toBe(`event: response.output_text.delta\ndata: ${JSON.stringify(make(text, i * 1000))}\n\n`);
    }
    for (const n of numbers) expect(frame(event('x', n)), String(n)).toBe(frame({ event: 'response.output_text.delta', data: make('x', n) }));
  });

  it('names each event from its values when asked to', () => {
    const make = (type: string, sequence_number: number) => ({ type, response: { id: 'resp_1' }, sequence_number });
    const event = eventTemplate(make, (type) => type);
    expect(frame(event('response.created', 0))).toBe(`event: response.created\ndata: ${JSON.stringify(make('response.created', 0))}\n\n`);
    expect(frame(event('response.in_progress', 1))).toBe(frame({ event: 'response.in_progress', data: make('response.in_progress', 1) }));
    const whole = eventTemplate((type: string) => ({ type, again: type }), (type) => `${type}!`);
    expect(whole('x')).toEqual({ event: 'x!', data: { type: 'x', again: 'x' } });
  });

  it('makes each event whole when a value is not simply placed', () => {
    const make = (text: string) => ({ text, length: text.length, upper: text.toUpperCase() });
    const event = eventTemplate(make);
    expect(event('abc')).toEqual({ data: { text: 'abc', length: 3, upper: 'ABC' } });
    const twice = (text: string) => ({ a: text, b: text });
    expect(eventTemplate(twice)('x')).toEqual({ data: { a: 'x', b: 'x' } });
    // More values than there are placeholders.
    const ten = (a: string, b: string, c: string, d: string, e: string, f: string, g: string, h: string, i: string, j: string) => ({ all: [a, b, c, d, e, f, g, h, i, j] });
    expect(eventTemplate(ten)('0', '1', '2', '3', '4', '5', '6', '7', '8', '9')).toEqual({ data: { all: ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'] } });
  });
});

describe('streamTemplate', () => {
  // A Responses delta: the item's id and index are the stream's head, the text and the number each event's.
  const make = ([item_id, output_index]: [string, number], delta: string, sequence_number: number) => ({ type: 'response.output_text.delta', item_id, output_index, content_index: 0, delta, sequence_number });

  it('gives, for each stream\'s head, the JSON of the event made with the head and each value', () => {
    const template = streamTemplate(make, 2, 'response.output_text.delta');
    for (const [i, head] of texts.entries()) {
      const event = template(head, i);
      for (const [j, text] of texts.entries()) expect(frame(event(text, j))).toBe(`event: response.output_text.delta\ndata: ${JSON.stringify(make([head, i], text, j))}\n\n`);
    }
    for (const n of numbers) expect(frame(template('msg_1', n)('x', n)), String(n)).toBe(frame({ event: 'response.output_text.delta', data: make(['msg_1', n], 'x', n) }));
  });

  it('keeps one stream\'s head out of another\'s events', () => {
    const template = streamTemplate(make, 2);
    const first = template('msg_a', 0);
    const second = template('msg_b', 1);
    expect(frame(first('x', 5))).toBe(frame({ data: make(['msg_a', 0], 'x', 5) }));
    expect(frame(second('x', 5))).toBe(frame({ data: make(['msg_b', 1], 'x', 5) }));
  });

  it('places the head wherever the shape puts it, before, between or after the values', () => {
    const around = ([a, b]: [string, string], x: string) => ({ x0: x, a, mid: 1, b, x1: 'end' });
    const template = streamTemplate(around, 2, 'e');
    for (const text of texts) expect(frame(template('"A"', 'B\n')(text))).toBe(frame({ event: 'e', data: around(['"A"', 'B\n'], text) }));
    const headOnly = ([id]: [string]) => ({ id, fixed: true });
    expect(frame(streamTemplate(headOnly, 1)('msg_1')())).toBe(frame({ data: headOnly(['msg_1']) }));
  });

  it('makes each event whole when a value is not simply placed', () => {
    const twice = ([id]: [string], text: string) => ({ id, text, again: id });
    expect(streamTemplate(twice, 1, 'e')('m')('x')).toEqual({ event: 'e', data: { id: 'm', text: 'x', again: 'm' } });
    const counted = ([id]: [string], text: string) => ({ id, length: text.length });
    expect(streamTemplate(counted, 1)('m')('abc')).toEqual({ data: { id: 'm', length: 3 } });
  });
});
