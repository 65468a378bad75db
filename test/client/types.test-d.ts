// Type tests of the typed client, checked by `npm run typecheck` (tsc -p ., part of `npm test`): each
// `@ts-expect-error` marks a call that must not compile; if it ever compiles, tsc reports the unused directive.
import { describe, expectTypeOf, it } from 'vitest';
import {
  collectChatCompletion,
  createGatewayClient,
  editImageFromBytes,
  GatewayError,
  imageBlob,
  imageBytes,
  streamChatCompletion,
  type ChatCompletion,
  type ChatCompletionChunk,
  type CollectedChatCompletion,
  type ImageResult,
  type ModelCollection,
  type TextCompletion,
} from '../../src/client/index.ts';

const client = createGatewayClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: 'sk-demo-starter' });
const messages = [{ role: 'user' as const, content: 'Hello!' }];

describe('createGatewayClient', () => {
  it('takes x-api-key or bearer auth, nothing else', () => {
    createGatewayClient({ baseUrl: 'http://x', apiKey: 'sk-1', auth: 'bearer' });
    createGatewayClient({ baseUrl: 'http://x' }); // the listing is public: no key needed
    // @ts-expect-error only 'x-api-key' and 'bearer'
    createGatewayClient({ baseUrl: 'http://x', apiKey: 'sk-1', auth: 'basic' });
    // @ts-expect-error baseUrl is required
    createGatewayClient({ apiKey: 'sk-1' });
  });
});

describe('request bodies and parameters', () => {
  it('chat completions: a correct body compiles, a wrong one does not', async () => {
    await client.POST('/v1/chat/completions', {
      body: {
        model: 'gpt-4o-mini',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AA==' } }] },
          { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 'call_1', content: '{"ok":true}' },
        ],
        temperature: 0.2,
        tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
        tool_choice: 'auto',
      },
    });
    // @ts-expect-error messages is required
    await client.POST('/v1/chat/completions', { body: { model: 'gpt-4o-mini' } });
    // @ts-expect-error model is required
    await client.POST('/v1/chat/completions', { body: { messages } });
    // @ts-expect-error the model is a string, not a number
    await client.POST('/v1/chat/completions', { body: { model: 4, messages } });
    // @ts-expect-error no such role
    await client.POST('/v1/chat/completions', { body: { model: 'gpt-4o-mini', messages: [{ role: 'robot', content: 'Hi' }] } });
    // @ts-expect-error a tool message needs tool_call_id
    await client.POST('/v1/chat/completions', { body: { model: 'gpt-4o-mini', messages: [{ role: 'tool', content: 'x' }] } });
    // @ts-expect-error temperature is a number
    await client.POST('/v1/chat/completions', { body: { model: 'gpt-4o-mini', messages, temperature: 'hot' } });
    // @ts-expect-error only function tools
    await client.POST('/v1/chat/completions', { body: { model: 'gpt-4o-mini', messages, tools: [{ type: 'web_search' }] } });
  });

  it('image generation: the model query parameter is required and typed', async () => {
    await client.POST('/v1/generation/image', { params: { query: { model: 'image-gen' } }, body: { prompt: 'A lighthouse', n: 2, size: '512x512' } });
    // @ts-expect-error the model query parameter is required
    await client.POST('/v1/generation/image', { body: { prompt: 'A lighthouse' } });
    // @ts-expect-error the model is a string
    await client.POST('/v1/generation/image', { params: { query: { model: 1 } }, body: { prompt: 'A lighthouse' } });
    // @ts-expect-error n is a number
    await client.POST('/v1/generation/image', { params: { query: { model: 'image-gen' } }, body: { prompt: 'A lighthouse', n: '2' } });
    // @ts-expect-error prompt is required
    await client.POST('/v1/generation/image', { params: { query: { model: 'image-gen' } }, body: { n: 1 } });
  });

  it('image edit: sizes are the two allowed ones; there is no model parameter', async () => {
    await client.POST('/v1/generation/image/edit', { body: { prompt: 'Add a boat', image: 'iVBORw0KGgo=', size: '512x512' } });
    // @ts-expect-error only 1024x1024 and 512x512
    await client.POST('/v1/generation/image/edit', { body: { prompt: 'Add a boat', image: 'iVBORw0KGgo=', size: '256x256' } });
    // @ts-expect-error image is required
    await client.POST('/v1/generation/image/edit', { body: { prompt: 'Add a boat' } });
    // @ts-expect-error no model query parameter on edits (D15)
    await client.POST('/v1/generation/image/edit', { params: { query: { model: 'image-gen' } }, body: { prompt: 'Add a boat', image: 'x' } });
  });

  it('text completion: model in the body or in the query', async () => {
    await client.POST('/v1/generation/prompt', { body: { prompt: 'Hi', model: 'gpt-4o-mini' } });
    await client.POST('/v1/generation/prompt', { params: { query: { model: 'gpt-4o-mini' } }, body: { prompt: 'Hi' } });
    // @ts-expect-error prompt is required
    await client.POST('/v1/generation/prompt', { body: { model: 'gpt-4o-mini' } });
  });

  it('only the contract paths and methods exist', async () => {
    // @ts-expect-error no such path
    await client.POST('/v1/completions', { body: { prompt: 'Hi' } });
    // @ts-expect-error the listing is GET only
    await client.POST('/v1/models');
  });
});

describe('results narrow on data | error', () => {
  it('chat completion', async () => {
    const { data, error } = await client.POST('/v1/chat/completions', { body: { model: 'gpt-4o-mini', messages } });
    // openapi-fetch's Readable<> drops properties typed only `null` (logprobs), so compare both ways.
    expectTypeOf(data).toExtend<ChatCompletion | undefined>();
    expectTypeOf<ChatCompletion>().toExtend<NonNullable<typeof data>>();
    if (error) {
      expectTypeOf(error.error).toEqualTypeOf<string>();
      expectTypeOf(data).toEqualTypeOf<undefined>();
    } else {
      expectTypeOf(data).not.toBeUndefined();
      expectTypeOf(data.choices[0]!.message.content).toEqualTypeOf<string | null>();
      expectTypeOf(data.usage.total_tokens).toEqualTypeOf<number>();
    }
  });

  it('every operation', async () => {
    const models = await client.GET('/v1/models');
    if (!models.error) expectTypeOf(models.data).toEqualTypeOf<ModelCollection>();
    const text = await client.POST('/v1/generation/prompt', { body: { prompt: 'Hi', model: 'gpt-4o-mini' } });
    if (!text.error) expectTypeOf(text.data).toEqualTypeOf<TextCompletion>();
    else expectTypeOf(text.error.error).toEqualTypeOf<string>();
    const image = await client.POST('/v1/generation/image', { params: { query: { model: 'image-gen' } }, body: { prompt: 'A lighthouse' } });
    if (!image.error) expectTypeOf(image.data).toEqualTypeOf<ImageResult>();
    else expectTypeOf(image.error.error).toEqualTypeOf<string>();
  });
});

describe('helpers', () => {
  it('streamChatCompletion yields typed chunks and sets stream itself', () => {
    const stream = streamChatCompletion(client, { model: 'gpt-4o-mini', messages, stream_options: { include_usage: true } });
    expectTypeOf(stream).toExtend<AsyncIterable<ChatCompletionChunk>>();
    streamChatCompletion({ baseUrl: 'http://x', apiKey: 'sk-1' }, { model: 'gpt-4o-mini', messages }, { signal: AbortSignal.timeout(1000) });
    // @ts-expect-error stream is set by the helper
    streamChatCompletion(client, { model: 'gpt-4o-mini', messages, stream: false });
    // @ts-expect-error messages is required
    streamChatCompletion(client, { model: 'gpt-4o-mini' });
  });

  it('collectChatCompletion gives a chat.completion', async () => {
    const completion = await collectChatCompletion(streamChatCompletion(client, { model: 'gpt-4o-mini', messages }));
    expectTypeOf(completion).toEqualTypeOf<CollectedChatCompletion>();
    expectTypeOf(completion.object).toEqualTypeOf<'chat.completion'>();
    expectTypeOf(completion).toExtend<Omit<ChatCompletion, 'usage'>>();
  });

  it('image helpers take and give bytes', async () => {
    expectTypeOf(imageBytes('AA==')).toEqualTypeOf<Uint8Array>();
    expectTypeOf(imageBlob('AA==')).toEqualTypeOf<Blob>();
    const result = await editImageFromBytes(client, { prompt: 'Add a boat', image: new Uint8Array(8), mask: new Blob([]), size: '512x512' });
    if (!result.error) expectTypeOf(result.data).toEqualTypeOf<ImageResult>();
    // @ts-expect-error image is bytes or a Blob here, not base64
    await editImageFromBytes(client, { prompt: 'Add a boat', image: 'iVBORw0KGgo=' });
  });

  it('GatewayError carries the status and the message', () => {
    expectTypeOf<GatewayError['status']>().toEqualTypeOf<number>();
    expectTypeOf<GatewayError['message']>().toEqualTypeOf<string>();
    expectTypeOf<GatewayError>().toExtend<Error>();
  });
});
