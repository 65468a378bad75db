/** The response checker: status, content type, schema and headers, with each profile's leniency. */
import { describe, expect, it } from 'vitest';
import { contract } from '../../src/contract/index.ts';
import type { Exchange } from '../../src/conformance/http.ts';
import { checkShape } from '../../src/conformance/shape.ts';
import { contextFor } from './helpers/context.ts';

function exchange(status: number, body: unknown, headers: Record<string, string> = {}, contentType = 'application/json'): Exchange {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return {
    request: { method: 'POST', url: 'http://x/v1/chat/completions', headers: {}, body: '', bodyBytes: 0 },
    response: { status, headers: { 'content-type': contentType, ...headers }, contentType, text, json: typeof body === 'string' ? undefined : body },
    durationMs: 1,
  };
}

const chat = contract.getOperation('createChatCompletion');
const image = contract.getOperation('createImage');
const text = contract.getOperation('createTextCompletion');
const completion = {
  id: 'c', object: 'chat.completion', created: 1, model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
};

describe('checkShape', () => {
  it('accepts a documented answer', () => {
    expect(checkShape(contextFor('gateway', 'full'), chat, exchange(200, completion))).toEqual([]);
  });

  it('refuses an undocumented status, naming the documented ones', () => {
    const [v] = checkShape(contextFor('gateway', 'core'), chat, exchange(201, completion));
    expect(v?.message).toMatch(/status 201 is not documented for createChatCompletion \(documented: 200, 400/);
  });

  it('refuses another content type', () => {
    const [v] = checkShape(contextFor('gateway', 'core'), chat, exchange(200, completion, {}, 'text/plain'));
    expect(v?.message).toMatch(/content type 'text\/plain' is not documented for 200 \(expected application\/json or text\/event-stream\)/);
  });

  it('names the schema keyword a body breaks', () => {
    const [v] = checkShape(contextFor('gateway', 'core'), chat, exchange(200, { ...completion, created: 'today' }));
    expect(v?.message).toBe('body: /created must be integer');
    expect(v?.rule).toBe('#/components/schemas/ChatCompletion/properties/created/type');
  });

  it('checks errors against the Error schema', () => {
    const [v] = checkShape(contextFor('gateway', 'core'), chat, exchange(401, { message: 'Invalid API Key.' }));
    expect(v?.message).toMatch(/must have required property 'error'/);
  });

  it('holds Retry-After and x-should-retry on 429 in every profile (D6: the headers are core)', () => {
    const quota = exchange(429, { error: 'Daily quota exceeded.' });
    for (const profile of ['core', 'full'] as const) {
      expect(checkShape(contextFor('gateway', profile), image, quota).map((v) => v.message)).toEqual([
        "required header 'retry-after' is missing",
        "required header 'x-should-retry' is missing",
      ]);
    }
    const withHeaders = exchange(429, { error: 'Daily quota exceeded.' }, { 'retry-after': '600', 'x-should-retry': 'true' });
    expect(checkShape(contextFor('gateway', 'full'), image, withHeaders).map((v) => v.message)).toEqual(["header 'x-should-retry: true' must be equal to constant"]);
  });

  it('checks a body of a reference decision (D1) in the full profile only', () => {
    const plain = exchange(200, { text: 'hello' });
    expect(checkShape(contextFor('gateway', 'core'), text, plain)).toEqual([]);
    expect(checkShape(contextFor('gateway', 'full'), text, plain)).not.toEqual([]);
  });

  it('accepts an undocumented 4xx `{error}` where the status is the reference\'s choice, in core only', () => {
    const teapot = exchange(422, { error: 'no' });
    expect(checkShape(contextFor('gateway', 'core'), chat, teapot, { anyClientError: true })).toEqual([]);
    expect(checkShape(contextFor('gateway', 'full'), chat, teapot, { anyClientError: true })).not.toEqual([]);
    expect(checkShape(contextFor('gateway', 'core'), chat, exchange(422, { message: 'no' }), { anyClientError: true })).not.toEqual([]);
  });

  it('reports a missing answer', () => {
    const ex: Exchange = { request: { method: 'GET', url: 'http://x', headers: {}, body: '', bodyBytes: 0 }, error: 'ECONNRESET', durationMs: 1 };
    expect(checkShape(contextFor('gateway', 'core'), chat, ex)[0]?.message).toBe('no answer: ECONNRESET');
  });
});
