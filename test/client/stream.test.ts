// streamChatCompletion and collectChatCompletion on scripted answers: framing split anywhere, error events,
// broken streams, non-2xx answers, and cancellation when the caller stops reading or aborts.
import { describe, expect, it } from 'vitest';
import { collectChatCompletion, createGatewayClient, GatewayError, streamChatCompletion } from '../../src/client/index.ts';
import { chunk, event, fakeFetch, type FakeAnswer } from './fake-fetch.ts';

const request = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Hi' }] };

function clientOf(answer: FakeAnswer) {
  const fake = fakeFetch(answer);
  return { fake, client: createGatewayClient({ baseUrl: 'http://gateway.test', apiKey: 'sk-test', fetch: fake.fetch }) };
}

async function drain<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const seen: T[] = [];
  for await (const item of stream) seen.push(item);
  return seen;
}

describe('streamChatCompletion', () => {
  it('sends stream: true with the key, and yields every chunk until [DONE]', async () => {
    const { fake, client } = clientOf({ pieces: [event(chunk({ role: 'assistant', content: '' })), event(chunk({ content: 'Hel' })), event(chunk({ content: 'lo' })), event(chunk({}, 'stop')), event('[DONE]')] });
    const chunks = await drain(streamChatCompletion(client, request));
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? null)).toEqual(['', 'Hel', 'lo', null]);
    expect(fake.bodies[0]).toEqual({ ...request, stream: true });
    expect(fake.requests[0]?.headers.get('x-api-key')).toBe('sk-test');
    expect(fake.requests[0]?.url).toBe('http://gateway.test/v1/chat/completions');
  });

  it('parses events split at any byte, even inside a multi-byte character', async () => {
    const text = event(chunk({ content: 'Grüße 🌊' })) + event(chunk({}, 'stop')) + event('[DONE]');
    const bytes = new TextEncoder().encode(text);
    for (const size of [1, 2, 3, 7]) {
      const pieces: Uint8Array[] = [];
      for (let i = 0; i < bytes.length; i += size) pieces.push(bytes.slice(i, i + size));
      const { client } = clientOf({ pieces });
      const chunks = await drain(streamChatCompletion(client, request));
      expect(chunks[0]?.choices[0]?.delta.content).toBe('Grüße 🌊');
    }
  });

  it('accepts the options of a client instead of a client', async () => {
    const fake = fakeFetch({ pieces: [event(chunk({}, 'stop')), event('[DONE]')] });
    await drain(streamChatCompletion({ baseUrl: 'http://gateway.test', apiKey: 'sk-bearer', auth: 'bearer', fetch: fake.fetch }, request));
    expect(fake.requests[0]?.headers.get('authorization')).toBe('Bearer sk-bearer');
    expect(fake.requests[0]?.headers.get('x-api-key')).toBeNull();
  });

  it('turns an {"error"} event into a GatewayError after the chunks before it', async () => {
    const { client } = clientOf({ pieces: [event(chunk({ content: 'Hel' })), event({ error: 'Upstream model failed.' }), event('[DONE]')] });
    const seen: string[] = [];
    const failure = await (async () => {
      for await (const c of streamChatCompletion(client, request)) seen.push(c.choices[0]?.delta.content ?? '');
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['Hel']);
    expect(failure).toBeInstanceOf(GatewayError);
    expect(failure).toMatchObject({ status: 200, message: 'Upstream model failed.', body: { error: 'Upstream model failed.' } });
  });

  it('rejects a malformed event and a stream cut before [DONE]', async () => {
    const malformed = clientOf({ pieces: [event('{"id":')] });
    await expect(drain(streamChatCompletion(malformed.client, request))).rejects.toThrow(/Malformed stream event/);
    const cut = clientOf({ pieces: [event(chunk({ content: 'Hel' })), 'data: {"id"'] });
    await expect(drain(streamChatCompletion(cut.client, request))).rejects.toThrow(/ended before data: \[DONE\]/);
  });

  it('turns a non-2xx answer into a GatewayError with its status and message', async () => {
    const unauthorized = clientOf({ status: 401, contentType: 'application/json', pieces: ['{"error":"Invalid API Key."}'] });
    await expect(drain(streamChatCompletion(unauthorized.client, request))).rejects.toMatchObject({ name: 'GatewayError', status: 401, message: 'Invalid API Key.' });
    const proxy = clientOf({ status: 502, contentType: 'text/html', pieces: ['<html>Bad gateway</html>'] });
    await expect(drain(streamChatCompletion(proxy.client, request))).rejects.toMatchObject({ status: 502, message: '<html>Bad gateway</html>' });
  });

  it('refuses a 200 answer that is not an event stream', async () => {
    const { client } = clientOf({ contentType: 'application/json', pieces: ['{"id":"chatcmpl-1"}'] });
    await expect(drain(streamChatCompletion(client, request))).rejects.toThrow(/Expected a text\/event-stream answer/);
  });

  it('cancels the request when the caller stops reading', async () => {
    const { fake, client } = clientOf({ pieces: [event(chunk({ content: 'Once' })), event(chunk({ content: ' upon' }))], hang: true });
    for await (const c of streamChatCompletion(client, request)) {
      expect(c.choices[0]?.delta.content).toBe('Once');
      break;
    }
    expect(fake.cancelled).toBe(true);
    expect(fake.requests[0]?.signal.aborted).toBe(true);
  });

  it('cancels the request and rejects with the reason when the signal aborts', async () => {
    const { fake, client } = clientOf({ pieces: [event(chunk({ content: 'Once' }))], hang: true });
    const controller = new AbortController();
    const reason = new Error('user left');
    const seen: string[] = [];
    const failure = await (async () => {
      for await (const c of streamChatCompletion(client, request, { signal: controller.signal })) {
        seen.push(c.choices[0]?.delta.content ?? '');
        controller.abort(reason); // while the next read waits for a chunk that never comes
      }
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['Once']);
    expect(failure).toBe(reason);
    expect(fake.requests[0]?.signal.aborted).toBe(true);
  });

  it('sends nothing when the signal is already aborted', async () => {
    const { fake, client } = clientOf({ pieces: [event('[DONE]')] });
    const reason = new Error('too late');
    await expect(drain(streamChatCompletion(client, request, { signal: AbortSignal.abort(reason) }))).rejects.toBe(reason);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('collectChatCompletion', () => {
  it('joins content, tool-call arguments, finish_reason and usage into a chat.completion', async () => {
    const usage = { prompt_tokens: 5, completion_tokens: 4, total_tokens: 9 };
    const { client } = clientOf({
      pieces: [
        event(chunk({ role: 'assistant', content: null })),
        event(chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '' } }] })),
        event(chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] })),
        event(chunk({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '{}' } }] })),
        event(chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] })),
        event(chunk({}, 'tool_calls')),
        event({ ...chunk({}), choices: [], usage }),
        event('[DONE]'),
      ],
    });
    const completion = await collectChatCompletion(streamChatCompletion(client, request));
    expect(completion).toEqual({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1763769600,
      model: 'gpt-4o-mini',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            refusal: null,
            tool_calls: [
              { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
              { id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '{}' } },
            ],
          },
          finish_reason: 'tool_calls',
          logprobs: null,
        },
      ],
      usage,
    });
  });

  it('has no usage when the stream carried none, and fails on a stream without finish_reason', async () => {
    const plain = clientOf({ pieces: [event(chunk({ role: 'assistant', content: '' })), event(chunk({ content: 'Hi' })), event(chunk({}, 'length')), event('[DONE]')] });
    const completion = await collectChatCompletion(streamChatCompletion(plain.client, request));
    expect(completion.choices[0]?.message.content).toBe('Hi');
    expect(completion.choices[0]?.finish_reason).toBe('length');
    expect(completion).not.toHaveProperty('usage');
    const unfinished = clientOf({ pieces: [event(chunk({ content: 'Hi' })), event('[DONE]')] });
    await expect(collectChatCompletion(streamChatCompletion(unfinished.client, request))).rejects.toThrow(/without a finish_reason/);
  });
});
