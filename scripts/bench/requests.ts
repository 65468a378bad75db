/** The requests the benchmark sends, the same to every server. */
import type { LoadSpec } from './load.ts';
import type { StreamTarget } from './streams.ts';

/** GET /v1/models with a key (the listing is public, but a key is how clients call it). */
export function modelsRequest(key: string): LoadSpec {
  return { method: 'GET', path: '/v1/models', headers: { 'x-api-key': key } };
}

const messages = [
  { role: 'system', content: 'You are a concise assistant.' },
  { role: 'user', content: 'Write three sentences about tides and the moon.' },
];

/**
 * A non-streamed chat completion of a small model every key may use. Each request asks about a different
 * ticket (`[<id>]`, replaced by autocannon), as real traffic does: the text engine remembers the answers
 * to recent identical requests, and a benchmark that repeats one request would measure that cache.
 */
export function chatRequest(key: string): LoadSpec {
  const unique = [messages[0]!, { role: 'user', content: `Ticket [<id>]: ${messages[1]!.content}` }];
  return {
    method: 'POST',
    path: '/v1/chat/completions',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: unique }),
    idReplacement: true,
  };
}

/**
 * The same chat completion, the very same request every time: what a naive load test sends. The engine
 * answers it from its cache of recent answers, so this shows that cache, not generation.
 */
export function repeatedChatRequest(key: string): LoadSpec {
  const spec = chatRequest(key);
  return { ...spec, body: withId(spec.body!, 'repeated'), idReplacement: false };
}

/** A body with its `[<id>]` replaced by a fixed id of the same length, for a single request. */
export function withId(body: string, id: string): string {
  return body.replaceAll('[<id>]', id.padEnd(33, '0').slice(0, 33));
}

/** A streamed chat completion with a fixed seed and length, so that every stream carries the same events. */
export function streamRequest(baseUrl: string, key: string, maxTokens: number): StreamTarget {
  return {
    baseUrl,
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: { model: 'gpt-4o-mini', messages, seed: 7, max_tokens: maxTokens },
  };
}
