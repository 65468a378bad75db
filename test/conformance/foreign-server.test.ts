/**
 * A server that is not this gateway: a small OpenAI-compatible stub that lists its one model in OpenAI's shape
 * and answers chat completions correctly (streamed or not), with OpenAI's error object for a wrong key, and
 * checks nothing else. `--contract openai` judges it, rule by rule; the gateway's contract refuses it at once,
 * saying which contract to pass.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance, UnreachableError } from '../../src/conformance/run.ts';

const KEY = 'sk-stub';
let stub: Server;
let baseUrl: string;

function completion(body: { model?: string; stream?: boolean; stream_options?: { include_usage?: boolean } }) {
  const base = { id: 'chatcmpl-1', created: Math.floor(Date.now() / 1000), model: body.model ?? 'stub-1' };
  if (!body.stream) {
    return { json: { ...base, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'Paris.' }, finish_reason: 'stop', logprobs: null }], usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } } };
  }
  const chunk = (choices: unknown[], usage?: unknown) => `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices, ...(usage ? { usage } : {}) })}\n\n`;
  const events = [
    chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]),
    chunk([{ index: 0, delta: { content: 'Paris.' }, finish_reason: null }]),
    chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]),
    ...(body.stream_options?.include_usage ? [chunk([], { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 })] : []),
    'data: [DONE]\n\n',
  ];
  return { sse: events.join('') };
}

beforeAll(async () => {
  stub = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const error = (status: number, message: string, type = 'invalid_request_error') => {
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message, type, param: null, code: null } }));
      };
      if (req.headers.authorization !== `Bearer ${KEY}`) return error(401, 'Incorrect API key provided.');
      if (req.method === 'GET' && req.url === '/v1/models') {
        return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'stub-1', object: 'model', created: 1700000000, owned_by: 'stub' }] }));
      }
      if (req.method === 'POST' && req.url === '/v1/chat/completions') {
        let body;
        try {
          body = JSON.parse(text);
        } catch {
          return error(400, 'We could not parse the JSON body of your request.');
        }
        const answer = completion(body);
        if (answer.sse) return res.writeHead(200, { 'content-type': 'text/event-stream' }).end(answer.sse);
        return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer.json));
      }
      if (req.method === 'POST' && req.url === '/v1/responses') {
        // A Responses endpoint that keeps nothing, and says so (`store: false`).
        const created_at = Math.floor(Date.now() / 1000);
        const output = [{ type: 'message', id: 'msg_1', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'Paris.', annotations: [] }] }];
        return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
          id: 'resp_1', object: 'response', created_at, status: 'completed', model: 'stub-1', output, store: false,
          usage: { input_tokens: 5, input_tokens_details: { cached_tokens: 0 }, output_tokens: 2, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 7 },
          error: null, incomplete_details: null,
        }));
      }
      error(404, `Invalid URL (${req.method} ${req.url})`);
    });
  });
  await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
  const address = stub.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(() => new Promise<void>((resolve) => stub.close(() => resolve())));

describe('an OpenAI-compatible server that is not the gateway', () => {
  it('is judged against OpenAI\'s protocol: its listing and answers pass, what it does not check fails with the rule', async () => {
    const report = await runConformance({ baseUrl, contracts: ['openai'], apiKeys: [KEY], only: ['openai:listModels', 'openai:createChatCompletion'], timeoutMs: 5000 });
    const outcome = (id: string) => report.results.find((r) => r.id === id)?.outcome;
    expect(outcome('openai:listModels/responses/no body')).toBe('passed');
    expect(outcome('openai:listModels/auth/no-key')).toBe('passed');
    expect(outcome('openai:createChatCompletion/responses/ChatCompletionRequestExample')).toBe('passed');
    expect(outcome('openai:createChatCompletion/streaming/with-usage')).toBe('passed');
    expect(outcome('openai:createChatCompletion/streaming/without-usage')).toBe('passed');
    // It takes any body: what OpenAI refuses, it answers.
    const bounds = report.results.find((r) => r.id === 'openai:createChatCompletion/behaviour/temperature-bounds')!;
    expect(bounds.outcome).toBe('failed');
    expect(bounds.violations[0]).toMatchObject({ ruleId: 'openai/sampling-bounds', url: 'https://platform.openai.com/docs/api-reference/chat/create' });
    // What OpenAI's API does but its reference does not say (refusing an unknown parameter) is not checked.
    expect(report.results.some((r) => r.id.endsWith('/unknown-property'))).toBe(false);
    // The model came from its own listing.
    expect(report.results.find((r) => r.id === 'openai:createChatCompletion/responses/ChatCompletionRequestExample')!.outcome).toBe('passed');
  });

  it('that keeps no stored responses (and says so) gets skips that say so, not failures', async () => {
    const report = await runConformance({ baseUrl, contracts: ['openai'], apiKeys: [KEY], only: ['openai:getResponse', 'openai:deleteResponse', 'openai:createResponse/behaviour'], timeoutMs: 5000 });
    // Continuing a response that was never kept must still be refused: this server answers it as if it had none.
    const gone = report.results.find((r) => r.id === 'openai:createResponse/behaviour/previous-response-gone')!;
    expect(gone.outcome).toBe('failed');
    expect(gone.violations[0]?.message).toMatch(/store: false: expected status 400 or 404, got 200/);
    // What it does keep to: a response made with store: false is not found.
    expect(report.results.find((r) => r.id === 'openai:getResponse/behaviour/not-stored')?.outcome).toBe('passed');
    const stored = report.results.filter((r) => r !== gone && !r.id.endsWith('/not-stored') && (r.operationId !== 'createResponse' || r.id.includes('previous-response')));
    expect(stored.length).toBeGreaterThan(5);
    for (const r of stored.filter((r) => !r.id.includes('/auth/'))) {
      expect(r.outcome, `${r.id}: ${JSON.stringify(r.violations.map((v) => v.message))}`).toBe('skipped');
      expect(r.reason, r.id).toMatch(/keeps no stored responses/);
    }
  });

  it('without a key given, leaves its authentication unchecked, saying what to pass', async () => {
    const report = await runConformance({ baseUrl, contracts: ['openai'], headers: { authorization: `Bearer ${KEY}` }, only: ['openai:createChatCompletion/auth'] });
    expect(report.summary.skipped).toBe(report.results.length);
    expect(new Set(report.results.map((r) => r.reason))).toEqual(new Set(['no key given: whether the server checks keys is not known (--key KEY)']));
  });

  it('is refused by the gateway\'s contract, which names the contract to pass', async () => {
    const refused = runConformance({ baseUrl, apiKeys: [KEY], headers: { authorization: `Bearer ${KEY}` } });
    await expect(refused).rejects.toThrow(UnreachableError);
    await expect(refused).rejects.toThrow(/OpenAI's list shape .* pass --contract openai/);
  });
});
