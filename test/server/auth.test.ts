import { describe, expect, it } from 'vitest';
import { startServer, useServer } from '../helpers/server.ts';
import { call, chatBody } from './http.ts';

const server = useServer();

describe('authentication', () => {
  it.each([
    ['no key', {}],
    ['an unknown key', { key: 'sk-unknown' }],
    ['an empty key', { key: '' }],
  ])('answers 401 Invalid API Key. with %s', async (_label, auth) => {
    const res = await call(server.baseUrl, 'POST', '/v1/chat/completions', { ...auth, body: chatBody() });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Invalid API Key.' });
  });

  it('accepts x-api-key on every operation', async () => {
    const res = await call(server.baseUrl, 'POST', '/v1/generation/prompt', { key: 'sk-demo-starter', body: { prompt: 'Hi', model: 'gpt-4o-mini' } });
    expect(res.status).toBe(200);
  });

  it('accepts Bearer on chat completions', async () => {
    const res = await call(server.baseUrl, 'POST', '/v1/chat/completions', { bearer: 'sk-demo-starter', body: chatBody() });
    expect(res.status).toBe(200);
  });

  it('refuses Bearer where the contract does not allow it', async () => {
    const prompt = await call(server.baseUrl, 'POST', '/v1/generation/prompt', { bearer: 'sk-demo-starter', body: { prompt: 'Hi', model: 'gpt-4o-mini' } });
    expect(prompt.status).toBe(401);
    const image = await call(server.baseUrl, 'POST', '/v1/generation/image?model=image-gen', { bearer: 'sk-demo-starter', body: { prompt: 'x' } });
    expect(image.status).toBe(401);
  });

  it('refuses a Basic or malformed Authorization header', async () => {
    for (const value of ['Basic c2stZGVtbzo=', 'Bearer', 'sk-demo-starter']) {
      const res = await call(server.baseUrl, 'POST', '/v1/chat/completions', { headers: { authorization: value }, body: chatBody() });
      expect(res.status, value).toBe(401);
    }
  });

  it('lists models without a key, and refuses an unknown key there (decision D13)', async () => {
    expect((await call(server.baseUrl, 'GET', '/v1/models')).status).toBe(200);
    expect((await call(server.baseUrl, 'GET', '/v1/models', { key: 'sk-demo-pro' })).status).toBe(200);
    const bad = await call(server.baseUrl, 'GET', '/v1/models', { key: 'sk-nope' });
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual({ error: 'Invalid API Key.' });
  });
});

describe('demo keys switched off', () => {
  it('refuses them everywhere', async () => {
    const off = await startServer({ demoKeys: false });
    try {
      const res = await call(off.baseUrl, 'POST', '/v1/chat/completions', { key: 'sk-demo-ultimate', body: chatBody() });
      expect(res.status).toBe(401);
    } finally {
      await off.close();
    }
  });
});
