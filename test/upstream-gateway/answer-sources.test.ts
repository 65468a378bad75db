// Where a model's answers come from (src/server/sources/answer-sources.ts): behind one text service, a model
// with an upstream is answered by it and every other model by the built-in engine. A stream asked for its
// prompt tokens first (as Anthropic's message_start says them) tells them before its first step, whoever
// answers: the engine's own count, or for an upstream, which reports its usage only at the end, the gateway's
// count of the request, made while the upstream begins.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtInEntries } from '../../src/server/catalogue/catalogue.ts';
import type { AnswerEvent } from '../../src/server/domain/answer-events.ts';
import type { ChatRequest } from '../../src/server/domain/chat.ts';
import { serverLogger } from '../../src/server/http/logger.ts';
import { answerSources, type AnswerSources } from '../../src/server/sources/answer-sources.ts';
import { startEngines, type Engines } from '../../src/server/workers/engines.ts';
import { heldStream, protocolEvents, startFaultyUpstream, type FaultyUpstream } from './faulty-upstream.ts';

const ask = (model: string): ChatRequest => ({ model, messages: [{ role: 'user', content: 'Tell me about the keepers of lighthouses.' }] });
const events = protocolEvents['openai-chat'];

async function stepsOf(steps: Iterable<AnswerEvent> | AsyncIterable<AnswerEvent>): Promise<AnswerEvent[]> {
  const read: AnswerEvent[] = [];
  for await (const step of steps) read.push(step);
  return read;
}

describe('the answer sources of a catalogue', () => {
  let upstream: FaultyUpstream;
  let engines: Engines;
  let sources: AnswerSources;
  beforeAll(async () => {
    upstream = await startFaultyUpstream();
    engines = startEngines({ text: { workers: 1, queue: 8 }, images: { workers: 1, queue: 1 } });
    const [model] = builtInEntries();
    const house = { ...model!, id: 'house-model', upstream: { protocol: 'openai-chat' as const, base_url: `${upstream.origin}/v1`, model: 'upstream-model' } };
    sources = answerSources([...builtInEntries(), house], engines, {}, { log: serverLogger(false) });
  });
  afterAll(async () => {
    await sources.close();
    await engines.close();
    await upstream.close();
  });

  it('answers a model with an upstream by the upstream, and the others by the engine', async () => {
    upstream.answer = (res) => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(events.whole('From upstream.')));
    const before = upstream.received.length;
    expect((await sources.text.answerChat(ask('house-model'))).content).toBe('From upstream.');
    expect(upstream.received).toHaveLength(before + 1);
    expect((await sources.text.answerChat(ask('gpt-4o-mini'))).content).not.toBe('From upstream.');
    expect(upstream.received).toHaveLength(before + 1);
  });

  it("tells an upstream stream's prompt tokens before its first step when asked, as count_tokens counts them", async () => {
    let release!: () => void;
    upstream.answer = heldStream(events.start('Hello'), new Promise<void>((resolve) => (release = resolve)), events.finish());
    // The upstream holds the rest of its answer until the stream below has begun: the count came first.
    const stream = await sources.text.streamChat(ask('house-model'), undefined, { promptTokens: true });
    expect(stream.promptTokens).toBe(await sources.text.countChatTokens(ask('house-model')));
    expect(stream.answer).toBeUndefined();
    release();
    const steps = await stepsOf(stream.events);
    expect(steps[0]).toEqual({ type: 'text', text: 'Hello' });
    // The end carries the upstream's own figures, as it reports them.
    expect(steps.at(-1)).toMatchObject({ type: 'end', promptTokens: 9, completionTokens: 2 });
  });

  it('counts nothing first for an upstream stream that was not asked to', async () => {
    upstream.answer = heldStream(events.start('Hello'), Promise.resolve(), events.finish());
    const stream = await sources.text.streamChat(ask('house-model'));
    expect(stream.promptTokens).toBeUndefined();
    expect((await stepsOf(stream.events)).at(-1)).toMatchObject({ type: 'end', promptTokens: 9 });
  });

  it("tells the engine's prompt tokens with its whole answer, asked or not", async () => {
    const counted = await sources.text.countChatTokens(ask('gpt-4o-mini'));
    for (const wants of [undefined, { promptTokens: true }]) {
      const stream = await sources.text.streamChat(ask('gpt-4o-mini'), undefined, wants);
      expect(stream.promptTokens).toBe(counted);
      expect(stream.answer?.promptTokens).toBe(counted);
    }
  });
});
