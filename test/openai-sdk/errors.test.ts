// Gateway errors as the openai SDK's error classes, and no retry of a daily quota.
import OpenAI, { APIError, RateLimitError } from 'openai';
import { describe, expect, it } from 'vitest';
import { useServer } from '../helpers/server.ts';
import { openaiFor } from './sdk.ts';

const server = useServer();

const hello = [{ role: 'user' as const, content: 'Hello!' }];

describe('openai SDK: errors', () => {
  it('401 → AuthenticationError with the gateway message', async () => {
    const { openai, sent } = openaiFor(server.baseUrl, 'sk-not-a-key');
    const failure = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: hello }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(OpenAI.AuthenticationError);
    // The SDK keeps the gateway's `error` string as `error` and quotes it in its message.
    expect(failure).toMatchObject({ status: 401, error: 'Invalid API Key.', message: '401 "Invalid API Key."' });
    expect(sent).toHaveLength(1);
  });

  it('403 → PermissionDeniedError for a model above the key tier', async () => {
    const { openai } = openaiFor(server.baseUrl, 'sk-demo-starter');
    const failure = await openai.chat.completions.create({ model: 'gpt-4.1', messages: hello }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect((failure as APIError).status).toBe(403);
    expect((failure as APIError).message).toMatch(/pro/);
  });

  it('400 → BadRequestError for temperature 3', async () => {
    const { openai } = openaiFor(server.baseUrl);
    const failure = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: hello, temperature: 3 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
    expect((failure as APIError).message).toMatch(/temperature/);
  });

  it('404 → NotFoundError for an unknown model', async () => {
    const { openai } = openaiFor(server.baseUrl);
    const failure = await openai.chat.completions.create({ model: 'gpt-9', messages: hello }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('429 → RateLimitError once the daily image quota is spent, sent once and never retried', async () => {
    const { openai, sent } = openaiFor(server.baseUrl, 'sk-demo-starter');
    // Bearer is for chat only (D14): image calls through the SDK's generic post() send the key as x-api-key.
    const generate = (n: number) =>
      openai.post('/generation/image', {
        query: { model: 'image-gen' },
        body: { prompt: 'A lighthouse at dawn', size: '256x256', n },
        headers: { 'x-api-key': 'sk-demo-starter' },
      });
    await generate(3); // the starter tier's whole day
    sent.length = 0;
    const failure = await generate(1).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(OpenAI.RateLimitError);
    expect(failure).toMatchObject({ status: 429, error: 'Daily quota exceeded.' });
    expect((failure as RateLimitError).headers.get('x-should-retry')).toBe('false');
    expect(sent).toEqual(['POST /v1/generation/image']);
  });
});
