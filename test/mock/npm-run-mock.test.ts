/**
 * `npm run mock`, started as a person starts it, answers what the contract documents: each operation's
 * example, every documented status and named example on demand (`Prefer`), the example stream, the 400
 * example with `sl-violations` for an invalid request, and CORS for a page on another origin.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract } from '../../src/contract/index.ts';
import { runMock, stopMock, type RunningMock } from './run-mock.ts';
import { exampleRequest, readBody, responseExamples, successStatus, type SpecRequest } from './spec-requests.ts';

let mock: RunningMock;

beforeAll(async () => {
  mock = await runMock('npm');
});

afterAll(async () => {
  await stopMock(mock);
});

async function send(request: SpecRequest): Promise<{ res: Response; body: unknown }> {
  const res = await fetch(`${mock.baseUrl}${request.path}`, {
    method: request.method,
    headers: request.headers,
    body: request.body,
  });
  return { res, body: await readBody(res) };
}

function verdict(operationId: string, res: Response, body: unknown) {
  return contract.validateResponse(operationId, {
    status: res.status,
    contentType: res.headers.get('content-type'),
    headers: Object.fromEntries(res.headers),
    body,
  });
}

describe('npm run mock', () => {
  it('prints where it listens and how to ask for each answer', () => {
    const text = mock.output();
    expect(text).toContain(`Prism is listening on ${mock.baseUrl}`);
    for (const hint of [`${mock.baseUrl}/v1`, 'Prefer: code=429', 'Accept: text/event-stream', 'sl-violations']) {
      expect(text).toContain(hint);
    }
    // The example names it suggests must be ones the contract has.
    const suggested = [...text.matchAll(/example=(\w+)/g)].map((m) => m[1]!);
    expect(suggested).toContain('ChatCompletionToolCallResponseExample');
    const known = new Set(contract.operations.flatMap((op) => responseExamples(op).map((e) => e.name)));
    expect(suggested.filter((name) => !known.has(name))).toEqual([]);
  });

  it.each(contract.operations.map((op) => [op.operationId, op] as const))(
    '%s answers its first documented example, valid against the contract',
    async (operationId, op) => {
      const { res, body } = await send(exampleRequest(op));
      const status = successStatus(op);
      expect(res.status).toBe(Number(status));
      const expected = responseExamples(op).find((e) => e.status === status);
      if (expected) {
        expect(res.headers.get('content-type')).toContain(expected.mediaType);
        expect(body).toEqual(expected.value);
      } else {
        expect(body).toBe('');
      }
      expect(verdict(operationId, res, body).message).toBe('');
    },
  );

  it("GET /v1/models returns the spec's catalogue, key or no key", async () => {
    const catalogue = contract.spec.components.examples.ListModelsResponseExample!.value;
    const { res, body } = await send({ method: 'GET', path: '/v1/models', headers: {} });
    expect(res.status).toBe(200);
    expect(body).toEqual(catalogue);
    const withKey = await send({ method: 'GET', path: '/v1/models', headers: { 'x-api-key': 'sk-anything' } });
    expect(withKey.body).toEqual(catalogue);
  });

  // Every documented answer, each named example included, is one Prefer header away.
  type Answer = [prefer: string, operationId: string, status: string, example: ReturnType<typeof responseExamples>[number] | undefined];
  const answers = contract.operations.flatMap((op) =>
    Object.keys(op.responses).flatMap((status): Answer[] => {
      const named = responseExamples(op).filter((e) => e.status === status);
      if (named.length === 0) return [[`code=${status}`, op.operationId, status, undefined]];
      // The first example needs no name: it is what `Prefer: code=…` alone answers.
      return named.map((e, i) => [i === 0 ? `code=${status}` : `code=${status}, example=${e.name}`, op.operationId, status, e]);
    }),
  );
  it.each(answers)('Prefer: %s on %s answers it, valid against the contract', async (prefer, operationId, status, example) => {
    const op = contract.getOperation(operationId);
    const accept = example?.mediaType ?? '*/*';
    const { res, body } = await send(exampleRequest(op, { prefer, accept }));
    expect(res.status).toBe(Number(status));
    if (example) {
      expect(res.headers.get('content-type')).toContain(example.mediaType);
      expect(body).toEqual(example.value);
    }
    expect(verdict(operationId, res, body).message).toBe('');
  });

  it('answers 401 "Invalid API Key." for Prefer: code=401, and for a missing key with sl-violations', async () => {
    const op = contract.getOperation('createChatCompletion');
    const asked = await send(exampleRequest(op, { prefer: 'code=401' }));
    expect(asked.res.status).toBe(401);
    expect(asked.body).toEqual({ error: 'Invalid API Key.' });

    const request = exampleRequest(op);
    delete request.headers['x-api-key'];
    const missing = await send(request);
    expect(missing.res.status).toBe(401);
    expect(missing.body).toEqual({ error: 'Invalid API Key.' });
    expect(missing.res.headers.get('sl-violations')).toContain('security');
  });

  it('answers 429 "Daily quota exceeded." with Retry-After and x-should-retry: false for Prefer: code=429', async () => {
    const { res, body } = await send(exampleRequest(contract.getOperation('createImage'), { prefer: 'code=429' }));
    expect(res.status).toBe(429);
    expect(body).toEqual({ error: 'Daily quota exceeded.' });
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 86_400).toBe(true);
    expect(res.headers.get('x-should-retry')).toBe('false');
  });

  it('answers the tool call example for Prefer: example=ChatCompletionToolCallResponseExample', async () => {
    const op = contract.getOperation('createChatCompletion');
    const { res, body } = await send(exampleRequest(op, { prefer: 'example=ChatCompletionToolCallResponseExample' }));
    expect(res.status).toBe(200);
    expect(body).toEqual(contract.spec.components.examples.ChatCompletionToolCallResponseExample!.value);
    expect(body).toMatchObject({ choices: [{ finish_reason: 'tool_calls' }] });
    expect(verdict('createChatCompletion', res, body).message).toBe('');
  });

  it('streams the example event stream for Accept: text/event-stream, ending with data: [DONE]', async () => {
    const op = contract.getOperation('createChatCompletion');
    const request = exampleRequest(op, { accept: 'text/event-stream' });
    request.body = JSON.stringify(contract.spec.components.examples.ChatCompletionStreamRequestExample!.value);
    const { res, body } = await send(request);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(verdict('createChatCompletion', res, body).message).toBe('');

    const events: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (event) => events.push(event) });
    parser.feed(body as string);
    expect(events.length).toBeGreaterThan(2);
    expect(events.at(-1)!.data).toBe('[DONE]');
    const chunk = contract.schemaValidator('ChatCompletionChunk');
    for (const event of events.slice(0, -1)) {
      expect(chunk(JSON.parse(event.data)), event.data).toBe(true);
    }
  });

  it('answers an invalid request with the 400 example and says why in sl-violations', async () => {
    const op = contract.getOperation('createChatCompletion');
    const request = exampleRequest(op);
    request.body = JSON.stringify({ ...JSON.parse(request.body!), temperature: 3 });
    const { res, body } = await send(request);
    expect(res.status).toBe(400);
    expect(body).toEqual(responseExamples(op).find((e) => e.status === '400')!.value);
    expect(verdict('createChatCompletion', res, body).message).toBe('');
    const violations = JSON.parse(res.headers.get('sl-violations') ?? '[]') as Array<{ location: string[] }>;
    expect(violations.map((v) => v.location.join('.'))).toContain('request.body.temperature');
  });

  it('answers a missing required query parameter with 400 and sl-violations', async () => {
    const request = exampleRequest(contract.getOperation('createImage'));
    request.path = request.path.replace(/\?.*$/, '');
    const { res } = await send(request);
    expect(res.status).toBe(400);
    expect(res.headers.get('sl-violations')).toContain('model');
  });

  it('lets a page on another origin call it: preflight, then readable answers and headers', async () => {
    const origin = 'http://localhost:5173';
    const preflight = await fetch(`${mock.baseUrl}/v1/chat/completions`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, x-api-key, prefer',
      },
    });
    expect(preflight.status).toBeLessThan(300);
    expect([origin, '*']).toContain(preflight.headers.get('access-control-allow-origin'));
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    for (const header of ['content-type', 'x-api-key', 'prefer']) expect(allowed === '*' || allowed.includes(header)).toBe(true);

    const request = exampleRequest(contract.getOperation('createImage'), { origin, prefer: 'code=429' });
    const { res } = await send(request);
    expect(res.headers.get('access-control-allow-origin')).toBeTruthy();
    // A page reads Retry-After only if it is exposed.
    const exposed = (res.headers.get('access-control-expose-headers') ?? '').toLowerCase();
    expect(exposed === '*' || exposed.includes('retry-after')).toBe(true);
  });
});
