// streamChatCompletion and collectChatCompletion against the reference server: the streamed answer is the
// JSON answer, errors are GatewayErrors, and stopping early is seen by the server as an abandoned stream.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { collectChatCompletion, createGatewayClient, GatewayError, streamChatCompletion, type ChatCompletionStreamRequest } from '../../src/client/index.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { logSink, STREAM_ABANDONED } from '../helpers/log.ts';

/** The slow server's log: it reports each stream a client left early. */
const slowLog = logSink();

let server: TestServer;
let slow: TestServer; // streams one token every 20 ms, so a stream is still running when the reader stops
beforeAll(async () => {
  [server, slow] = await Promise.all([startServer(), startServer({ tokenDelayMs: 20, logger: slowLog.logger })]);
});
afterAll(async () => {
  await Promise.all([server.close(), slow.close()]);
});

const story: ChatCompletionStreamRequest = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Tell me a long story about the sea.' }], seed: 11 };
const weather: ChatCompletionStreamRequest = {
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: 'What is the weather in Paris and in Rome?' }],
  tools: [{ type: 'function', function: { name: 'get_weather', description: 'Current weather in a city.', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } }],
  seed: 5,
};

describe('streamChatCompletion on the reference server', () => {
  it('collects into exactly the non-streamed completion, usage included', async () => {
    const client = createGatewayClient({ baseUrl: server.baseUrl, apiKey: 'sk-demo-starter' });
    for (const request of [story, weather]) {
      const whole = await client.POST('/v1/chat/completions', { body: request });
      if (whole.error) throw new Error(whole.error.error);
      const collected = await collectChatCompletion(streamChatCompletion(client, { ...request, stream_options: { include_usage: true } }));
      expect({ ...collected, id: whole.data.id, created: whole.data.created }).toEqual(whole.data);
    }
  });

  it('works from options with a Bearer key, one chunk at a time', async () => {
    let chunks = 0;
    for await (const chunk of streamChatCompletion({ baseUrl: server.baseUrl, apiKey: 'sk-demo-starter', auth: 'bearer' }, story)) {
      expect(chunk.object).toBe('chat.completion.chunk');
      chunks++;
    }
    expect(chunks).toBeGreaterThan(3);
  });

  it('throws a GatewayError with status and message for a refused request', async () => {
    const stream = streamChatCompletion({ baseUrl: server.baseUrl, apiKey: 'sk-demo-starter' }, { ...story, model: 'gpt-4.1' });
    const failure = await stream.next().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(GatewayError);
    expect(failure).toMatchObject({ status: 403, message: expect.stringMatching(/'pro' tier/) });
  });

  it('cancels the request when the caller breaks out of the loop', async () => {
    const before = slowLog.count(STREAM_ABANDONED);
    let pieces = 0;
    for await (const chunk of streamChatCompletion({ baseUrl: slow.baseUrl, apiKey: 'sk-demo-starter' }, story)) {
      if (chunk.choices[0]?.delta.content && ++pieces === 2) break;
    }
    await vi.waitFor(() => expect(slowLog.count(STREAM_ABANDONED)).toBe(before + 1));
  });

  it('cancels the request when the caller aborts its signal', async () => {
    const before = slowLog.count(STREAM_ABANDONED);
    const controller = new AbortController();
    const reason = new Error('navigated away');
    const failure = await (async () => {
      for await (const chunk of streamChatCompletion({ baseUrl: slow.baseUrl, apiKey: 'sk-demo-starter' }, story, { signal: controller.signal })) {
        if (chunk.choices[0]?.delta.content) controller.abort(reason);
      }
    })().catch((e: unknown) => e);
    expect(failure).toBe(reason);
    await vi.waitFor(() => expect(slowLog.count(STREAM_ABANDONED)).toBe(before + 1));
  });
});
