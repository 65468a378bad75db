// Stop sequences are the gateway's to keep (decision D31), whatever the upstream's protocol does with them:
// OpenAI Responses has none, OpenAI Chat Completions takes four and does not say which one stopped it, and
// the reference server standing in for both ignores them. Through `@anthropic-ai/sdk`, a message with a
// stop sequence its answer holds stops just before it and says `stop_sequence` and which, streamed or not;
// a stream stopped by the gateway reads no further.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicFor } from '../anthropic-sdk/sdk.ts';
import { startUpstreamPair, type TextProtocol, type UpstreamPair } from '../helpers/upstream-gateway.ts';
import { stopInAnswer, stopInStream } from '../../src/server/upstream/stop-sequences.ts';
import type { AnswerEvent } from '../../src/server/domain/answer-events.ts';
import type { ChatAnswer } from '../../src/server/domain/chat.ts';

const KEY = 'sk-demo-ultimate';
const request = {
  model: 'claude-haiku-4-5',
  max_tokens: 400,
  messages: [{ role: 'user' as const, content: 'Tell me about the keepers of lighthouses and their long nights.' }],
};

/**
 * A word from the middle of the answer the gateway gives without stop sequences, that answer cut before it,
 * and its output tokens. (With an upstream, the answer is the upstream's to the translated request, not the
 * built-in engine's: the word is found in the answer that will be cut.)
 */
async function stopWord(baseUrl: string): Promise<{ word: string; expected: string; wholeTokens: number }> {
  const { anthropic } = anthropicFor(baseUrl, { apiKey: KEY });
  const whole = await anthropic.messages.create(request);
  const text = whole.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
  const words = text.split(/\s+/).filter((w) => /^[a-z]{5,}$/.test(w));
  const word = words[Math.floor(words.length / 2)];
  if (!word) throw new Error(`no word to stop at in ${JSON.stringify(text)}`);
  return { word, expected: text.slice(0, text.indexOf(word)), wholeTokens: whole.usage.output_tokens };
}

describe.each(['openai-chat', 'openai-responses', 'anthropic-messages'] as TextProtocol[])('through an %s upstream', (protocol) => {
  let pair: UpstreamPair;
  beforeAll(async () => {
    pair = await startUpstreamPair(protocol, { recordUpstream: true });
  });
  afterAll(async () => {
    await pair.close();
  });

  it('a message stops just before the stop sequence, and says which', async () => {
    const { word, expected, wholeTokens } = await stopWord(pair.gateway.baseUrl);
    const { anthropic } = anthropicFor(pair.gateway.baseUrl, { apiKey: KEY });
    const answer = await anthropic.messages.create({ ...request, stop_sequences: [word] });
    const text = answer.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
    expect(text).toBe(expected);
    expect({ stop_reason: answer.stop_reason, stop_sequence: answer.stop_sequence }).toEqual({ stop_reason: 'stop_sequence', stop_sequence: word });
    // Billed for what the client received, not for what the upstream wrote past the stop.
    expect(answer.usage.output_tokens).toBeGreaterThan(0);
    expect(answer.usage.output_tokens).toBeLessThan(wholeTokens);
  });

  it('a streamed message stops there too, its deltas adding up to the same text', async () => {
    const { word, expected } = await stopWord(pair.gateway.baseUrl);
    const { anthropic } = anthropicFor(pair.gateway.baseUrl, { apiKey: KEY });
    const stream = anthropic.messages.stream({ ...request, stop_sequences: [word] });
    let deltas = '';
    stream.on('text', (piece) => (deltas += piece));
    const message = await stream.finalMessage();
    expect(deltas).toBe(expected);
    expect({ stop_reason: message.stop_reason, stop_sequence: message.stop_sequence }).toEqual({ stop_reason: 'stop_sequence', stop_sequence: word });
    expect(message.usage.output_tokens).toBeGreaterThan(0);
  });
});

/** Steps as an upstream's arrive; `onRead` is called for each one read. */
async function* fromArray(steps: AnswerEvent[], onRead: () => void = () => {}): AsyncGenerator<AnswerEvent> {
  for (const step of steps) {
    onRead();
    yield step;
  }
}

async function collect(steps: AsyncIterable<AnswerEvent>): Promise<AnswerEvent[]> {
  const out: AnswerEvent[] = [];
  for await (const step of steps) out.push(step);
  return out;
}

const answer = (content: string, pieces: string[]): ChatAnswer => ({
  content,
  contentPieces: pieces,
  toolCalls: [{ id: 'call_1', name: 'f', arguments: '{}', argumentPieces: ['{}'] }],
  finishReason: 'tool_calls',
  stopSequence: null,
  promptTokens: 10,
  completionTokens: 20,
});

describe('stopInAnswer', () => {
  it('cuts the text and its pieces before the earliest stop sequence, drops the calls after it, and leaves the count to the gateway', () => {
    const cut = stopInAnswer(answer('One. Two. Three.', ['One.', ' Two.', ' Three.']), ['Three', 'Two']);
    expect(cut).toMatchObject({ content: 'One. ', contentPieces: ['One.', ' '], toolCalls: [], finishReason: 'stop', stopSequence: 'Two', promptTokens: 10, completionTokens: -1 });
  });

  it('leaves an answer without a stop sequence, or stopped by its upstream, as it is', () => {
    const plain = answer('One. Two.', ['One.', ' Two.']);
    expect(stopInAnswer(plain, ['Three'])).toBe(plain);
    expect(stopInAnswer(plain, [])).toBe(plain);
    const stopped = { ...plain, stopSequence: 'Two' };
    expect(stopInAnswer(stopped, ['One'])).toBe(stopped);
  });
});

describe('stopInStream', () => {
  it('finds a stop sequence split over pieces, holding back the last characters (as many as could begin one), and stops reading there', async () => {
    let read = 0;
    const pieces = ['The lamp ', 'was lit; E', 'N', 'D of the night', ' and more'];
    const steps = fromArray([...pieces.map((text) => ({ type: 'text' as const, text })), { type: 'end' as const, finishReason: 'stop' as const, stopSequence: null, promptTokens: 3, completionTokens: 9 }], () => read++);
    const out = await collect(stopInStream(steps, ['END']));
    expect(out).toEqual([
      { type: 'text', text: 'The lam' },
      { type: 'text', text: 'p was lit;' },
      { type: 'text', text: ' ' },
      { type: 'end', finishReason: 'stop', stopSequence: 'END', promptTokens: -1, completionTokens: -1 },
    ]);
    // The piece after the one that completed the sequence was never asked for.
    expect(read).toBe(4);
  });

  it('passes text out whole when no stop sequence can begin in it, and flushes what it held before a call and at the end', async () => {
    const end = { type: 'end' as const, finishReason: 'tool_calls' as const, stopSequence: null, promptTokens: 3, completionTokens: 9 };
    const steps = fromArray([{ type: 'text', text: 'Sea' }, { type: 'text', text: 'gull!' }, { type: 'tool-call', index: 0, id: 'c', name: 'f' }, end]);
    const out = await collect(stopInStream(steps, ['!?']));
    expect(out).toEqual([{ type: 'text', text: 'Se' }, { type: 'text', text: 'agull' }, { type: 'text', text: '!' }, { type: 'tool-call', index: 0, id: 'c', name: 'f' }, end]);
  });

  it('never parts a surrogate pair', async () => {
    const steps = fromArray([{ type: 'text', text: 'Light 🌊' }, { type: 'text', text: ' waves' }]);
    const out = (await collect(stopInStream(steps, ['xy']))).map((s) => (s.type === 'text' ? s.text : ''));
    expect(out.join('')).toBe('Light 🌊 waves');
    for (const piece of out) expect(piece).toBe(Buffer.from(piece, 'utf8').toString('utf8'));
  });
});
