// Gateway errors as the Anthropic SDK's error classes, in Anthropic's error shape with the gateway's messages
// (decision D27). The 429 and 500 come from a wrapper of the text service passed to buildApp, the app's
// normal way of being built: the reference has no rate limit on text, and no fault switch.
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/server/domain/errors.ts';
import { startServer, useServer } from '../helpers/server.ts';
import { anthropicFor } from './sdk.ts';

const server = useServer();
const hello = { max_tokens: 64, messages: [{ role: 'user' as const, content: 'Hello!' }] };

/** The error body the SDK kept. */
function bodyOf(failure: unknown): unknown {
  return (failure as { error?: unknown }).error;
}

describe('Anthropic SDK: errors', () => {
  it('401 → AuthenticationError, with the message the gateway gives everywhere', async () => {
    const { anthropic, sent } = anthropicFor(server.baseUrl, { apiKey: 'sk-not-a-key' });
    const failure = await anthropic.messages.create({ model: 'claude-haiku-4-5', ...hello }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(Anthropic.AuthenticationError);
    expect(bodyOf(failure)).toEqual({ type: 'error', error: { type: 'authentication_error', message: 'Invalid API Key.' } });
    expect(sent).toHaveLength(1);
  });

  it('403 → PermissionDeniedError for a model above the key tier', async () => {
    const { anthropic } = anthropicFor(server.baseUrl, { authToken: 'sk-demo-starter' });
    const failure = await anthropic.messages.create({ model: 'claude-opus-4-1', ...hello }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(Anthropic.PermissionDeniedError);
    expect(bodyOf(failure)).toMatchObject({ error: { type: 'permission_error', message: expect.stringMatching(/'ultimate' tier/) } });
  });

  it('400 → BadRequestError for temperature above 1 and for the image model', async () => {
    const { anthropic } = anthropicFor(server.baseUrl);
    // The 1.x SDK's types no longer list `temperature`; the API (and the gateway, 0–1) still take it.
    const tooHot = { model: 'claude-haiku-4-5', ...hello, temperature: 1.5 } as Anthropic.MessageCreateParamsNonStreaming;
    const hot = await anthropic.messages.create(tooHot).catch((e: unknown) => e);
    expect(hot).toBeInstanceOf(Anthropic.BadRequestError);
    expect(bodyOf(hot)).toMatchObject({ error: { type: 'invalid_request_error', message: expect.stringMatching(/temperature/) } });
    const image = await anthropic.messages.create({ model: 'image-gen', ...hello }).catch((e: unknown) => e);
    expect(image).toBeInstanceOf(Anthropic.BadRequestError);
    expect(bodyOf(image)).toMatchObject({ error: { message: expect.stringMatching(/'image-gen' does not support \/v1\/messages/) } });
  });

  it('400 for max_tokens above 1,048,576 (D27), naming the field; 32,000 as Claude Code sends is fine', async () => {
    // Sent as raw HTTP: the SDK itself refuses a non-streamed request whose max_tokens could take minutes.
    const send = (maxTokens: number) =>
      fetch(`${server.baseUrl}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': 'sk-demo-economy', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'claude-haiku-4-5', ...hello, max_tokens: maxTokens }),
      });
    const over = await send(2_000_000);
    expect(over.status).toBe(400);
    expect(await over.json()).toMatchObject({ error: { type: 'invalid_request_error', message: expect.stringMatching(/max_tokens must be <= 1048576/) } });
    const claudeCodes = await send(32_000);
    expect(claudeCodes.status).toBe(200);
    expect(await claudeCodes.json()).toMatchObject({ stop_reason: 'end_turn' });
  });

  it('404 → NotFoundError for an unknown model, on messages and on countTokens', async () => {
    const { anthropic } = anthropicFor(server.baseUrl);
    const failure = await anthropic.messages.create({ model: 'claude-sonnet-4-20250514', ...hello }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(Anthropic.NotFoundError);
    expect(bodyOf(failure)).toMatchObject({ error: { type: 'not_found_error', message: expect.stringMatching(/does not exist/) } });
    const count = await anthropic.messages.countTokens({ model: 'claude-9', messages: hello.messages }).catch((e: unknown) => e);
    expect(count).toBeInstanceOf(Anthropic.NotFoundError);
  });

  it('413 → request_too_large for a body over the limit', async () => {
    const { anthropic } = anthropicFor(server.baseUrl);
    const huge = 'x'.repeat(21 * 1024 * 1024);
    const failure = await anthropic.messages.create({ model: 'claude-haiku-4-5', max_tokens: 8, messages: [{ role: 'user', content: huge }] }, { maxRetries: 0 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(Anthropic.APIError);
    expect((failure as InstanceType<typeof Anthropic.APIError>).status).toBe(413);
    expect(bodyOf(failure)).toMatchObject({ error: { type: 'request_too_large' } });
  });

  it('429 → RateLimitError and 500 → InternalServerError, from a text service that refuses', async () => {
    const refusing = await startServer({
      services: (built) => ({
        ...built,
        text: {
          ...built.text,
          answerChat: async (request) => {
            if (request.messages.some((m) => JSON.stringify(m).includes('limit me'))) throw new GatewayError('rate_limit', 'Too many requests; try again later.', 30);
            if (request.messages.some((m) => JSON.stringify(m).includes('break'))) throw new Error('the engine broke');
            return built.text.answerChat(request);
          },
        },
      }),
    });
    try {
      const { anthropic, sent } = anthropicFor(refusing.baseUrl);
      const limited = await anthropic.messages.create({ model: 'claude-haiku-4-5', max_tokens: 8, messages: [{ role: 'user', content: 'limit me' }] }, { maxRetries: 0 }).catch((e: unknown) => e);
      expect(limited).toBeInstanceOf(Anthropic.RateLimitError);
      expect(bodyOf(limited)).toEqual({ type: 'error', error: { type: 'rate_limit_error', message: 'Too many requests; try again later.' } });
      expect((limited as InstanceType<typeof Anthropic.APIError>).headers?.get('retry-after')).toBe('30');
      const broken = await anthropic.messages.create({ model: 'claude-haiku-4-5', max_tokens: 8, messages: [{ role: 'user', content: 'break' }] }, { maxRetries: 0 }).catch((e: unknown) => e);
      expect(broken).toBeInstanceOf(Anthropic.InternalServerError);
      expect(bodyOf(broken)).toEqual({ type: 'error', error: { type: 'api_error', message: 'Internal server error.' } });
      expect(sent).toHaveLength(2);
    } finally {
      await refusing.close();
    }
  });

  it('keeps the gateway shape {error} outside the Anthropic operations', async () => {
    const res = await fetch(`${server.baseUrl}/v1/chat/completions`, { method: 'POST', headers: { 'x-api-key': 'nope', 'content-type': 'application/json' }, body: '{}' });
    expect(await res.json()).toEqual({ error: 'Invalid API Key.' });
    const unknown = await fetch(`${server.baseUrl}/v1/messages/batches`, { method: 'POST' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: expect.any(String) });
  });
});
