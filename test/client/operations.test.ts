// The typed client against the reference server over HTTP: every operation, both auth schemes, errors as
// typed data, and the image helpers on real PNGs.
import { describe, expect, it } from 'vitest';
import { createGatewayClient, editImageFromBytes, imageBlob, imageBytes } from '../../src/client/index.ts';
import { useServer } from '../helpers/server.ts';
import { pngSize } from './png.ts';

const server = useServer();

const hello = [{ role: 'user' as const, content: 'Hello!' }];
const clientFor = (apiKey?: string, auth?: 'x-api-key' | 'bearer') =>
  createGatewayClient({ baseUrl: server.baseUrl, ...(apiKey && { apiKey }), ...(auth && { auth }) });

describe('typed client: text operations', () => {
  it('lists the models without a key, and refuses an unknown key with 401', async () => {
    const { data, error } = await clientFor().GET('/v1/models');
    expect(error).toBeUndefined();
    expect(data?.models.find((m) => m.id === 'image-gen')?.category).toBe('Image');
    const refused = await clientFor('sk-unknown').GET('/v1/models');
    expect(refused.response.status).toBe(401);
    expect(refused.error?.error).toBe('Invalid API Key.');
  });

  it('answers a chat with the key as x-api-key or as a Bearer token', async () => {
    for (const auth of ['x-api-key', 'bearer'] as const) {
      const { data, error, response } = await clientFor('sk-demo-starter', auth).POST('/v1/chat/completions', {
        body: { model: 'gpt-4o-mini', messages: hello },
      });
      expect(error).toBeUndefined();
      expect(data?.object).toBe('chat.completion');
      expect(data?.choices[0]?.message.content).toMatch(/\w/);
      expect(Number(response.headers.get('x-gateway-billed-tokens'))).toBeGreaterThan(0);
    }
  });

  it('sends Bearer only where asked: the prompt endpoint refuses it (D14)', async () => {
    const { error, response } = await clientFor('sk-demo-starter', 'bearer').POST('/v1/generation/prompt', {
      body: { prompt: 'Hi', model: 'gpt-4o-mini' },
    });
    expect(response.status).toBe(401);
    expect(error?.error).toBe('Invalid API Key.');
  });

  it('completes a prompt with the model in the query', async () => {
    const { data } = await clientFor('sk-demo-starter').POST('/v1/generation/prompt', {
      params: { query: { model: 'gpt-4o-mini' } },
      body: { prompt: 'Write a haiku about the sea.' },
    });
    expect(data?.object).toBe('text_completion');
    expect(data?.choices[0]?.text).toMatch(/\w/);
  });

  it('returns 403 and 400 as typed errors with the gateway message', async () => {
    const client = clientFor('sk-demo-starter');
    const denied = await client.POST('/v1/chat/completions', { body: { model: 'claude-opus-4-1', messages: hello } });
    expect(denied.response.status).toBe(403);
    expect(denied.error?.error).toMatch(/ultimate/);
    const invalid = await client.POST('/v1/chat/completions', { body: { model: 'gpt-4o-mini', messages: hello, temperature: 3 } });
    expect(invalid.response.status).toBe(400);
    expect(invalid.error?.error).toMatch(/temperature/);
  });
});

describe('typed client: images', () => {
  it('generates PNGs that imageBytes and imageBlob decode, then meets the daily quota', async () => {
    const client = clientFor('sk-demo-starter');
    const { data, error } = await client.POST('/v1/generation/image', {
      params: { query: { model: 'image-gen' } },
      body: { prompt: 'A lighthouse at dawn', size: '256x256', n: 2 },
    });
    if (error) throw new Error(error.error);
    expect(data.data).toHaveLength(2);
    const bytes = imageBytes(data.data[0]!.b64_json);
    expect(pngSize(bytes)).toEqual({ width: 256, height: 256 });
    const blob = imageBlob(data.data[0]!.b64_json);
    expect(blob.type).toBe('image/png');
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(bytes);

    // Starter: 3 a day. Two are spent; asking for two more fails whole.
    const over = await client.POST('/v1/generation/image', { params: { query: { model: 'image-gen' } }, body: { prompt: 'x', n: 2 } });
    expect(over.response.status).toBe(429);
    expect(over.error?.error).toBe('Daily quota exceeded.');
  });

  it('edits from bytes: a Uint8Array image with a Blob mask (inpainting), and a variation without mask', async () => {
    const client = clientFor('sk-demo-economy');
    const generated = await client.POST('/v1/generation/image', {
      params: { query: { model: 'image-gen' } },
      body: { prompt: 'A calm sea', size: '256x256' },
    });
    if (generated.error) throw new Error(generated.error.error);
    const picture = imageBytes(generated.data.data[0]!.b64_json);

    const inpainted = await editImageFromBytes(client, { prompt: 'Add a boat', image: picture, mask: imageBlob(generated.data.data[0]!.b64_json), size: '512x512' });
    if (inpainted.error) throw new Error(inpainted.error.error);
    expect(pngSize(imageBytes(inpainted.data.data[0]!.b64_json))).toEqual({ width: 512, height: 512 });

    const variations = await editImageFromBytes(client, { prompt: 'Watercolour', image: new Blob([picture as Uint8Array<ArrayBuffer>]), n: 2, size: '512x512' });
    expect(variations.data?.data).toHaveLength(2);
  });

  it('reports an undecodable image as a typed 400', async () => {
    const { error, response } = await editImageFromBytes(clientFor('sk-demo-pro'), { prompt: 'x', image: new TextEncoder().encode('not an image') });
    expect(response.status).toBe(400);
    expect(error?.error).toMatch(/image/i);
  });
});
