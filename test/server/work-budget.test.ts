/**
 * A work budget per request (decision D22): the hostile requests that used to freeze the server are each
 * answered with a clear 400 or in bounded time, the engines' work runs in worker threads while the event
 * loop keeps answering others, and what real agents send is still admitted.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../src/server/domain/chat.ts';
import { LONG_RUN, countTokens } from '../../src/server/domain/engine/text/tokens.ts';
import { defaultWorkerSettings, INLINE_TEXT } from '../../src/server/workers/engines.ts';
import { startServer, useServer } from '../helpers/server.ts';
import { call, chatBody } from './http.ts';

const server = useServer();
const key = 'sk-demo-ultimate';
const chat = (body: Record<string, unknown>, base = server.baseUrl) => call(base, 'POST', '/v1/chat/completions', { key, body });

/** A chat request that must call the one tool `f`, whose parameters are `parameters`. */
const toolCall = (parameters: unknown, content = 'Call the tool.') =>
  chatBody({
    messages: [{ role: 'user', content }],
    tools: [{ type: 'function', function: { name: 'f', parameters } }],
    tool_choice: { type: 'function', function: { name: 'f' } },
  });

/** Resolves with the order in which the promises settled. */
async function settleOrder(named: Record<string, Promise<unknown>>): Promise<string[]> {
  const order: string[] = [];
  await Promise.all(Object.entries(named).map(([name, promise]) => promise.then(() => order.push(name))));
  return order;
}

describe('long words are tokenized in bounded pieces', () => {
  it(`counts a 200,000-character word as its ${LONG_RUN}-character pieces, and answers`, async () => {
    const word = 'a'.repeat(200_000);
    const res = await chat(chatBody({ messages: [{ role: 'user', content: word }] }));
    expect(res.status).toBe(200);
    const pieces = Math.floor(word.length / LONG_RUN);
    const expected = pieces * countTokens('a'.repeat(LONG_RUN)) + countTokens('a'.repeat(word.length % LONG_RUN));
    expect(countTokens(word)).toBe(expected);
    const bare = await chat(chatBody({ messages: [{ role: 'user', content: 'a' }] }));
    expect(res.body.usage.prompt_tokens - bare.body.usage.prompt_tokens).toBe(expected - countTokens('a'));
  });

  it('tokenizes a million-character word of two-unit characters without cutting one', () => {
    const word = '😀'.repeat(500_000);
    // Quadratic tokenizing would take hours here; in pieces it is linear. Every emoji is at least one token.
    expect(countTokens(word)).toBeGreaterThanOrEqual(500_000);
    expect(countTokens(`x${word}`)).toBeGreaterThanOrEqual(500_001);
  });
});

describe('tool schemas are bounded, with a 400 that names the limit', () => {
  const node = { $ref: '#/$defs/n' };
  const cases: Array<[string, unknown, RegExp]> = [
    [
      'four required properties that each refer to the same object',
      { $defs: { n: { type: 'object', required: ['a', 'b', 'c', 'd'], properties: { a: node, b: node, c: node, d: node } } }, $ref: '#/$defs/n' },
      /needs a value of more than 10,000 parts/,
    ],
    [
      'a recursive array with minItems 4',
      { $defs: { l: { type: 'array', minItems: 4, items: { $ref: '#/$defs/l' } } }, type: 'object', required: ['x'], properties: { x: { $ref: '#/$defs/l' } } },
      /needs a value of more than 10,000 parts/,
    ],
    ['an anyOf of self-references', { $defs: { n: { anyOf: [node, node, node] } }, type: 'object', required: ['x'], properties: { x: node } }, /refers to itself \(#\/\$defs\/n\)/],
    ['an allOf of a self-reference', { $defs: { n: { allOf: [node] } }, type: 'object', required: ['x'], properties: { x: node } }, /refers to itself/],
    ['minProperties 10,000', { type: 'object', minProperties: 10_000 }, /minProperties 10,000; the limit is 1,000/],
    ['minLength 80,000', { type: 'object', required: ['s'], properties: { s: { type: 'string', minLength: 80_000 } } }, /minLength 80,000; the limit is 10,000/],
    ['minItems 200,000', { type: 'object', required: ['s'], properties: { s: { type: 'array', minItems: 200_000 } } }, /minItems 200,000; the limit is 1,000/],
    ['nesting 40 levels deep', Array.from({ length: 40 }).reduce<unknown>((inner) => ({ type: 'object', properties: { x: inner } }), { type: 'string' }), /nested more than 32 levels deep/],
  ];
  it.each(cases)('%s', async (_, parameters, message) => {
    const res = await chat(toolCall(parameters));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^The parameters schema of tool 'f' /);
    expect(res.body.error).toMatch(message);
  });
});

describe("a caller's regular expression never runs on the backtracking engine", () => {
  it('answers at once for ^(a|aa)+$ against a hint that would take the JavaScript engine hours', async () => {
    const parameters = { type: 'object', required: ['code'], properties: { code: { type: 'string', pattern: '^(a|aa)+$' } } };
    const res = await chat(toolCall(parameters, `My code is ${'a'.repeat(60)}b.`));
    expect(res.status).toBe(200);
    const args = JSON.parse(res.body.choices[0].message.tool_calls[0].function.arguments);
    expect(args.code).toMatch(/^(a|aa)+$/);
  });

  it('still applies patterns: a hint that does not match is not used', async () => {
    const parameters = { type: 'object', required: ['ticker'], properties: { ticker: { type: 'string', pattern: '^[A-Z]{1,5}$' } } };
    const res = await chat(toolCall(parameters, 'What does Paris trade at?'));
    expect(JSON.parse(res.body.choices[0].message.tool_calls[0].function.arguments).ticker).toMatch(/^[A-Z]{1,5}$/);
  });
});

describe('the size limits of the contract (decision D22)', () => {
  it('refuses more than 4,096 messages, naming the limit', async () => {
    const messages = Array.from({ length: 4_097 }, () => ({ role: 'user', content: 'hi' }));
    const res = await chat(chatBody({ messages }));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/messages/);
    expect(res.body.error).toMatch(/4096/);
  });

  it('refuses a request with more than 4,194,304 characters of text, naming the limit', async () => {
    const half = 'word '.repeat(450_000);
    const res = await chat(chatBody({ messages: [{ role: 'user', content: half }, { role: 'user', content: half }] }));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/4,500,000 characters of text; at most 4,194,304/);
  });

  it('admits what a coding agent sends: 24 tools with 2020-12 schemas in ~75 KB, max_tokens 32,000, a long conversation', async () => {
    const tools = Array.from({ length: 24 }, (_, i) => ({
      type: 'function',
      function: {
        name: `tool_${i}`,
        description: `Tool number ${i}. ${'It reads files, runs commands and edits code with care. '.repeat(40)}`,
        parameters: {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
          properties: {
            path: { type: 'string', description: 'The absolute path of the file to work on.' },
            offset: { type: 'integer', minimum: 0 },
            edits: { type: 'array', items: { type: 'object', properties: { old: { type: 'string' }, new: { type: 'string' } }, required: ['old', 'new'], additionalProperties: false } },
            mode: { type: 'string', enum: ['read', 'write', 'append'] },
          },
          required: ['path'],
          additionalProperties: false,
        },
      },
    }));
    const history = Array.from({ length: 200 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `Step ${i}: ${'const x = compute(y); // refactor this loop\n'.repeat(40)}` }));
    const body = chatBody({ messages: [{ role: 'system', content: 'You are a coding agent.' }, ...history, { role: 'user', content: 'Read /src/app.ts' }], tools, max_tokens: 32_000 });
    expect(JSON.stringify({ tools }).length).toBeGreaterThan(60_000);
    expect(JSON.stringify(body).length).toBeGreaterThan(300_000);
    const res = await chat(body);
    expect(res.status).toBe(200);
    expect(res.body.usage.prompt_tokens).toBeGreaterThan(50_000);
  });
});

describe('engines run off the event loop', () => {
  it('answers a model listing while a 4-million-character prompt is being tokenized', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const gateway = await startServer({
      services: (built) => ({
        ...built,
        text: {
          ...built.text,
          answerChat: (request: ChatRequest) => {
            const answer = built.text.answerChat(request);
            started();
            return answer;
          },
        },
      }),
    });
    try {
      let seed = 1;
      const letters = Array.from({ length: 4_000_000 }, () => String.fromCharCode(97 + ((seed = (seed * 48271) % 2147483647) % 26))).join('');
      const heavy = chat(chatBody({ messages: [{ role: 'user', content: letters }] }), gateway.baseUrl);
      await running;
      const probe = call(gateway.baseUrl, 'GET', '/v1/models', { key });
      expect(await settleOrder({ heavy, probe })).toEqual(['probe', 'heavy']);
      expect((await heavy).status).toBe(200);
    } finally {
      await gateway.close();
    }
  });

  it('answers short chats on the event loop while the text workers are busy, and refuses every text request once no place is left to wait (503)', async () => {
    let calls = 0;
    const waiters: Array<{ n: number; resolve: () => void }> = [];
    const called = (n: number) => new Promise<void>((resolve) => (calls >= n ? resolve() : waiters.push({ n, resolve })));
    const gateway = await startServer({
      workers: { text: { workers: 1, queue: 1 } },
      services: (built) => ({
        ...built,
        text: {
          ...built.text,
          answerChat: (request: ChatRequest) => {
            const answer = built.text.answerChat(request);
            calls++;
            for (const w of waiters.filter((w) => calls >= w.n)) w.resolve();
            return answer;
          },
        },
      }),
    });
    try {
      const short = () => chat(chatBody({ messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Explain tides to a sailor.' }] }), gateway.baseUrl);
      const long = () => chat(chatBody({ messages: [{ role: 'user', content: 'word '.repeat(INLINE_TEXT.characters) }] }), gateway.baseUrl);
      const letters = Array.from({ length: 4_000_000 }, (_, i) => String.fromCharCode(97 + ((i * 7919) % 26))).join('');
      const heavy = chat(chatBody({ messages: [{ role: 'user', content: letters }] }), gateway.baseUrl);
      await called(1);
      // The only worker is busy: a short conversation without tools is the event loop's own work.
      expect((await short()).status).toBe(200);
      const counted = await call(gateway.baseUrl, 'POST', '/v1/messages/count_tokens', { key, body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi there' }] } });
      expect(counted.status).toBe(200);
      // Beyond INLINE_TEXT it is a worker's, and waits in the one waiting place.
      const waiting = long();
      await called(3);
      // Now no place is left: long text, a tool schema and short text alike are refused.
      for (const refused of [await long(), await chat(toolCall({ type: 'object', properties: { city: { type: 'string' } } }), gateway.baseUrl), await short()]) {
        expect(refused.status).toBe(503);
        expect(refused.headers.get('retry-after')).toBe('1');
      }
      expect((await heavy).status).toBe(200);
      expect((await waiting).status).toBe(200);
    } finally {
      await gateway.close();
    }
  });

  it('serves a thousand chat streams that open at the same moment, refusing none', async () => {
    // The default pools of a two-core machine, whatever this one has.
    const gateway = await startServer({ workers: defaultWorkerSettings(2) });
    try {
      const streams = Array.from({ length: 1000 }, (_, i) =>
        fetch(`${gateway.baseUrl}/v1/chat/completions`, {
          method: 'POST',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: JSON.stringify(chatBody({ messages: [{ role: 'user', content: `Hello number ${i}` }], stream: true, max_tokens: 8 })),
        }).then(async (res) => `${res.status} ${(await res.text()).trimEnd().endsWith('data: [DONE]')}`),
      );
      const outcomes = await Promise.all(streams);
      expect(outcomes.filter((o) => o !== '200 true')).toEqual([]);
    } finally {
      await gateway.close();
    }
  });

  it('answers 503 with Retry-After when every image worker and waiting place is taken, and gives the quota back', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const gateway = await startServer({
      workers: { images: { workers: 1, queue: 0 } },
      services: (built) => ({
        ...built,
        images: {
          ...built.images,
          edit: (k, order) => {
            const batch = built.images.edit(k, order);
            started();
            return batch;
          },
        },
      }),
    });
    try {
      const source = (await sharp({ create: { width: 4096, height: 4096, channels: 3, background: '#2a9d8f' } }).png().toBuffer()).toString('base64');
      const heavy = call(gateway.baseUrl, 'POST', '/v1/generation/image/edit', { key, body: { prompt: 'At dusk', image: source, size: '1024x1024', n: 10 } });
      await running;
      const probe = call(gateway.baseUrl, 'GET', '/v1/models', { key });
      const refused = call(gateway.baseUrl, 'POST', '/v1/generation/image?model=image-gen', { key, body: { prompt: 'A boat', size: '256x256' } });
      expect(await settleOrder({ heavy, probe, refused })).toEqual(['probe', 'refused', 'heavy']);
      expect((await refused).status).toBe(503);
      expect((await refused).headers.get('retry-after')).toBe('1');
      expect((await refused).body.error).toMatch(/busy/);
      const done = await heavy;
      expect(done.status).toBe(200);
      // The refused image was given back: 50 a day, 10 used by the edit.
      expect(done.headers.get('x-ratelimit-remaining-images')).toBe('40');
      const after = await call(gateway.baseUrl, 'POST', '/v1/generation/image?model=image-gen', { key, body: { prompt: 'A boat', size: '256x256' } });
      expect(after.headers.get('x-ratelimit-remaining-images')).toBe('39');
    } finally {
      await gateway.close();
    }
  });

  it('reserves the quota before decoding: a key with none left gets 429 for an edit, however large its picture', async () => {
    const gateway = await startServer();
    try {
      const starter = 'sk-demo-starter';
      const bad = { prompt: 'x', image: 'bm90IGFuIGltYWdl' };
      // With quota left, a picture that does not decode is a 400 and costs nothing.
      expect((await call(gateway.baseUrl, 'POST', '/v1/generation/image/edit', { key: starter, body: bad })).status).toBe(400);
      const made = await call(gateway.baseUrl, 'POST', '/v1/generation/image?model=image-gen', { key: starter, body: { prompt: 'A boat', size: '256x256', n: 3 } });
      expect(made.headers.get('x-ratelimit-remaining-images')).toBe('0');
      const refused = await call(gateway.baseUrl, 'POST', '/v1/generation/image/edit', { key: starter, body: bad });
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ error: 'Daily quota exceeded.' });
    } finally {
      await gateway.close();
    }
  });
});
