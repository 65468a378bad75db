// The vendors' own SDKs see a stream that fails after it began as an error (decision D31), not as an answer
// that simply stopped: the `openai` package pointed at `{gateway}/v1` throws from its iteration of a chat
// completion stream at the `{"error"}` event (and its Responses stream helper rejects with the `error`
// event), and `@anthropic-ai/sdk` pointed at the gateway's root throws from `messages.create({ stream: true })`
// and from `messages.stream()` at the `error` event, each after the text that came before it. The failure is
// the upstream's (any text protocol): its error event, or its stream cut once the SDK has read the first text.
import Anthropic from '@anthropic-ai/sdk';
import { APIError } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import { baseUrlFor, upstreamCatalogue, type TextProtocol } from '../helpers/upstream-gateway.ts';
import { anthropicFor } from '../anthropic-sdk/sdk.ts';
import { openaiFor } from '../openai-sdk/sdk.ts';
import { heldStream, protocolEvents, startFaultyUpstream, type FaultyUpstream } from './faulty-upstream.ts';

const KEY = 'sk-demo-ultimate';
const MODEL = 'gpt-4o-mini';
const question = [{ role: 'user' as const, content: 'What should I know about lighthouses?' }];

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

type Failure = 'error event' | 'cut';

/**
 * A gateway whose chat models' upstream sends the first events of an answer ("Hello"), waits until the
 * test says the SDK has read that text, then fails as `failure` says.
 */
async function failingAfterHello(protocol: TextProtocol, failure: Failure): Promise<{ upstream: FaultyUpstream; gateway: TestServer; sawHello: () => void }> {
  const upstream = await startFaultyUpstream();
  cleanup.push(() => upstream.close());
  let sawHello!: () => void;
  const seen = new Promise<void>((resolve) => (sawHello = resolve));
  const events = protocolEvents[protocol];
  upstream.answer = failure === 'cut' ? heldStream(events.start('Hello'), seen, [], 'cut') : heldStream(events.start('Hello'), seen, [events.error('The upstream is overloaded.')], 'end');
  const gateway = await startServer({ catalogue: upstreamCatalogue(protocol, baseUrlFor(protocol, upstream.origin)), environment: { UPSTREAM_KEY: 'sk-operator-sdk' } });
  cleanup.push(() => gateway.close());
  return { upstream, gateway, sawHello };
}

/** What a promise rejects with (undefined when it resolves). */
function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

const cases = (['openai-chat', 'anthropic-messages', 'openai-responses'] as const).flatMap((protocol) => (['error event', 'cut'] as const).map((failure) => ({ protocol, failure })));
const says: Record<Failure, RegExp> = { 'error event': /The upstream is overloaded\./, cut: /cut its answer off/ };

describe.each(cases)('an $protocol upstream whose stream fails after it began ($failure)', ({ protocol, failure }) => {
  it('openai: iterating chat.completions.create({ stream: true }) throws an APIError carrying the message, after the text', async () => {
    const { upstream, gateway, sawHello } = await failingAfterHello(protocol, failure);
    const { openai, sent } = openaiFor(gateway.baseUrl, KEY);
    const stream = await openai.chat.completions.create({ model: MODEL, messages: question, stream: true });
    let text = '';
    const thrown = await failureOf(
      (async () => {
        for await (const chunk of stream) {
          text += chunk.choices[0]?.delta.content ?? '';
          if (text === 'Hello') sawHello();
        }
      })(),
    );
    expect(thrown).toBeInstanceOf(APIError);
    // The gateway's `error` is a string: the SDK keeps it as `error` and quotes it in its message.
    const error = (thrown as APIError).error as string;
    expect(typeof error).toBe('string');
    expect(error).toMatch(says[failure]);
    expect(error).toContain(upstream.origin);
    expect((thrown as APIError).message).toContain(JSON.stringify(error));
    expect(text).toBe('Hello');
    expect(sent, 'a stream that began is not retried').toHaveLength(1);
  });

  it("openai: responses.stream() fails: finalResponse() rejects with the error event, after the text", async () => {
    // The SDK raises `{"error"}` chunks as APIErrors; a Responses `error` event is one of the protocol's
    // documented events, which its stream helper emits as its `error`: finalResponse() rejects with it.
    const { upstream, gateway, sawHello } = await failingAfterHello(protocol, failure);
    const { openai } = openaiFor(gateway.baseUrl, KEY);
    const stream = openai.responses.stream({ model: MODEL, input: 'What should I know about lighthouses?' });
    const types: string[] = [];
    let text = '';
    stream.on('event', (event) => types.push(event.type));
    stream.on('response.output_text.delta', (event) => {
      text += event.delta;
      if (text === 'Hello') sawHello();
    });
    const thrown = await failureOf(stream.finalResponse());
    expect(thrown).toMatchObject({ type: 'error', code: null, param: null, message: expect.stringMatching(says[failure]) });
    expect((thrown as { message: string }).message).toContain(upstream.origin);
    expect(text).toBe('Hello');
    expect(types).not.toContain('response.completed');
  });

  it('anthropic: iterating messages.create({ stream: true }) throws an APIError of type api_error, after the text', async () => {
    const { upstream, gateway, sawHello } = await failingAfterHello(protocol, failure);
    const { anthropic, sent } = anthropicFor(gateway.baseUrl, { apiKey: KEY });
    const stream = await anthropic.messages.create({ model: MODEL, max_tokens: 256, messages: question, stream: true });
    let text = '';
    const thrown = await failureOf(
      (async () => {
        for await (const event of stream) {
          if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
          if (text === 'Hello') sawHello();
        }
      })(),
    );
    expect(thrown).toBeInstanceOf(Anthropic.APIError);
    const error = thrown as InstanceType<typeof Anthropic.APIError>;
    expect(error.type).toBe('api_error');
    expect(error.error).toEqual({ type: 'error', error: { type: 'api_error', message: expect.stringMatching(says[failure]) } });
    expect(error.message).toContain(upstream.origin);
    expect(text).toBe('Hello');
    expect(sent).toHaveLength(1);
  });

  it("anthropic: messages.stream()'s finalMessage() rejects with the error, its text events having said Hello", async () => {
    const { gateway, sawHello } = await failingAfterHello(protocol, failure);
    const { anthropic } = anthropicFor(gateway.baseUrl, { apiKey: KEY });
    const stream = anthropic.messages.stream({ model: MODEL, max_tokens: 256, messages: question });
    let text = '';
    stream.on('text', (delta) => {
      text += delta;
      if (text === 'Hello') sawHello();
    });
    const thrown = await failureOf(stream.finalMessage());
    expect(thrown).toBeInstanceOf(Anthropic.APIError);
    expect((thrown as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({ type: 'error', error: { type: 'api_error', message: expect.stringMatching(says[failure]) } });
    expect(text).toBe('Hello');
  });
});
