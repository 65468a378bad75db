import { describe, expect, it } from 'vitest';
import { countTokens } from '../../src/server/domain/engine/text/index.ts';
import { useServer } from '../helpers/server.ts';
import { call } from './http.ts';

const server = useServer();

const key = 'sk-demo-starter';

describe('the prompt endpoint (decisions D1, D2)', () => {
  it('takes the model from the body or from the query', async () => {
    const fromBody = await call(server.baseUrl, 'POST', '/v1/generation/prompt', { key, body: { prompt: 'Once upon a time', model: 'gpt-4o-mini' } });
    const fromQuery = await call(server.baseUrl, 'POST', '/v1/generation/prompt?model=gpt-4o-mini', { key, body: { prompt: 'Once upon a time' } });
    expect(fromBody.status).toBe(200);
    expect(fromQuery.status).toBe(200);
    expect(fromQuery.body.choices[0].text).toBe(fromBody.body.choices[0].text);
    expect(fromBody.body).toMatchObject({ object: 'text_completion', model: 'gpt-4o-mini' });
    expect(fromBody.body.usage.completion_tokens).toBe(countTokens(fromBody.body.choices[0].text));
  });

  it('accepts the same model in both places and refuses two different ones', async () => {
    const same = await call(server.baseUrl, 'POST', '/v1/generation/prompt?model=gpt-4o-mini', { key, body: { prompt: 'Hi', model: 'gpt-4o-mini' } });
    expect(same.status).toBe(200);
    const conflict = await call(server.baseUrl, 'POST', '/v1/generation/prompt?model=gpt-4o-mini', { key, body: { prompt: 'Hi', model: 'mistral-small' } });
    expect(conflict.status).toBe(400);
    expect(conflict.body.error).toContain('mistral-small');
  });

  it('requires a model somewhere', async () => {
    const res = await call(server.baseUrl, 'POST', '/v1/generation/prompt', { key, body: { prompt: 'Hi' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/model is required/);
  });

  it('honours max_tokens exactly and shows the billed tokens', async () => {
    const res = await call(server.baseUrl, 'POST', '/v1/generation/prompt', { key, body: { prompt: 'Write a long story about the sea', model: 'gpt-4o-mini', max_tokens: 4 } });
    expect(res.body.usage.completion_tokens).toBe(4);
    expect(res.body.choices[0].finish_reason).toBe('length');
    expect(countTokens(res.body.choices[0].text)).toBe(4);
    expect(res.headers.get('x-gateway-multiplier')).toBe('0.5');
    expect(Number(res.headers.get('x-gateway-billed-tokens'))).toBe(Math.ceil(res.body.usage.total_tokens * 0.5));
  });
});
