import { describe, expect, it } from 'vitest';
import { contract, tierRank, tiers } from '../../src/contract/index.ts';
import { useServer } from '../helpers/server.ts';
import { call, chatBody } from './http.ts';

const server = useServer();

type Model = { id: string; tier: (typeof tiers)[number]; endpoints: string[] };

describe('model listing and tiers', () => {
  it('serves the catalogue of the contract', async () => {
    const res = await call<{ models: Model[] }>(server.baseUrl, 'GET', '/v1/models');
    expect(res.body).toEqual(contract.spec.components.examples.ListModelsResponseExample!.value);
  });

  it('lets each tier use exactly the chat models at or below it, and names the tier needed otherwise', async () => {
    const { body } = await call<{ models: Model[] }>(server.baseUrl, 'GET', '/v1/models');
    const chatModels = body.models.filter((m) => m.endpoints.includes('/v1/chat/completions'));
    for (const keyTier of ['starter', 'economy', 'pro', 'ultimate'] as const) {
      for (const model of chatModels) {
        const res = await call(server.baseUrl, 'POST', '/v1/chat/completions', { key: `sk-demo-${keyTier}`, body: chatBody({ model: model.id, max_tokens: 3 }) });
        if (tierRank(model.tier) <= tierRank(keyTier)) {
          expect(res.status, `${keyTier} → ${model.id}`).toBe(200);
        } else {
          expect(res.status, `${keyTier} → ${model.id}`).toBe(403);
          expect(res.body.error).toContain(`'${model.tier}'`);
        }
      }
    }
  });

  it('answers 404 for an unknown model and 400 for a model without the endpoint', async () => {
    const unknown = await call(server.baseUrl, 'POST', '/v1/chat/completions', { key: 'sk-demo-ultimate', body: chatBody({ model: 'gpt-9' }) });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toContain("'gpt-9'");
    const image = await call(server.baseUrl, 'POST', '/v1/chat/completions', { key: 'sk-demo-ultimate', body: chatBody({ model: 'image-gen' }) });
    expect(image.status).toBe(400);
    const prompt = await call(server.baseUrl, 'POST', '/v1/generation/prompt', { key: 'sk-demo-ultimate', body: { model: 'gpt-4.1', prompt: 'x' } });
    expect(prompt.status).toBe(400);
    expect(prompt.body.error).toContain('/v1/generation/prompt');
  });

  it('names the image model when image generation is asked of a chat model', async () => {
    const res = await call(server.baseUrl, 'POST', '/v1/generation/image?model=gpt-4o-mini', { key: 'sk-demo-starter', body: { prompt: 'a cat' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Model 'gpt-4o-mini' does not support image generation. Use the image model 'image-gen'.");
  });
});
