/**
 * Streamed chat completions: sends `stream: true` and yields each `chat.completion.chunk` as it arrives.
 */
import { createGatewayClient, isGatewayClient, type GatewayClient, type GatewayClientOptions } from './client.ts';
import { GatewayError, isErrorBody } from './errors.ts';
import { readEvents } from './sse.ts';
import type { ChatCompletionChunk, ChatCompletionRequest } from './types.ts';

/** A chat completion request for streaming; `stream` is set by the helper. */
export type ChatCompletionStreamRequest = Omit<ChatCompletionRequest, 'stream'>;

export interface StreamOptions {
  /** Aborting it cancels the request; the iteration then rejects with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * Streams a chat completion. The request starts on the first `next()`; stopping early (`break`, `return`)
 * or aborting `signal` cancels it, so the gateway stops generating. A non-2xx answer, an `{"error": …}`
 * event, a malformed event, or a stream that ends without `data: [DONE]` rejects with a `GatewayError`.
 *
 * @example
 *   const client = createGatewayClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: 'sk-demo-starter' });
 *   const stream = streamChatCompletion(client, {
 *     model: 'gpt-4o-mini',
 *     messages: [{ role: 'user', content: 'Tell me a story.' }],
 *   });
 *   for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta.content ?? '');
 */
export async function* streamChatCompletion(
  target: GatewayClient | GatewayClientOptions,
  body: ChatCompletionStreamRequest,
  options: StreamOptions = {},
): AsyncGenerator<ChatCompletionChunk, void, undefined> {
  const client = isGatewayClient(target) ? target : createGatewayClient(target);
  const controller = new AbortController();
  const { signal } = options;
  const forward = () => controller.abort(signal?.reason);
  if (signal?.aborted) forward();
  signal?.addEventListener('abort', forward, { once: true });
  try {
    const { data, error, response } = await client.POST('/v1/chat/completions', {
      body: { ...body, stream: true },
      headers: { accept: 'text/event-stream' },
      parseAs: 'stream',
      signal: controller.signal,
    });
    if (error !== undefined || !response.ok) throw GatewayError.from(response.status, error);
    const type = response.headers.get('content-type') ?? '';
    if (!type.startsWith('text/event-stream') || !data) {
      await data?.cancel();
      throw new GatewayError(response.status, `Expected a text/event-stream answer, got '${type || 'no content type'}'.`);
    }
    yield* readChunks(data, response.status);
  } finally {
    signal?.removeEventListener('abort', forward);
    // Stops the request when the caller stopped reading; after a complete stream it changes nothing.
    controller.abort();
  }
}

/** The chunk layer: each event's JSON until `[DONE]`; errors and broken framing become `GatewayError`s. */
async function* readChunks(body: ReadableStream<Uint8Array>, status: number): AsyncGenerator<ChatCompletionChunk> {
  for await (const event of readEvents(body)) {
    if (event.data === '[DONE]') return;
    let payload: unknown;
    try {
      payload = JSON.parse(event.data);
    } catch {
      throw new GatewayError(status, `Malformed stream event: ${event.data.slice(0, 200)}`);
    }
    if (isErrorBody(payload)) throw new GatewayError(status, payload.error, payload);
    yield payload as ChatCompletionChunk;
  }
  throw new GatewayError(status, 'The stream ended before data: [DONE]; the answer may be incomplete.');
}
