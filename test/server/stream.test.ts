import { describe, expect, it } from 'vitest';
import { contract, describeErrors } from '../../src/contract/index.ts';
import { logSink, STREAM_ABANDONED } from '../helpers/log.ts';
import { startServer, useServer } from '../helpers/server.ts';
import { chatBody } from './http.ts';
import { collectChatCompletion } from '../../src/client/index.ts';
import { readEvents } from './sse.ts';

/** The message a stream's chunks add up to, joined by the client's own collector. */
async function reassemble(chunks: any[]) {
  const completion = await collectChatCompletion((async function* () {
    yield* chunks;
  })());
  return { ...completion.choices[0]!.message, finish_reason: completion.choices[0]!.finish_reason };
}

const server = useServer();

const post = (body: unknown, signal?: AbortSignal) =>
  fetch(`${server.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'x-api-key': 'sk-demo-starter', 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  });

const validChunk = contract.schemaValidator('ChatCompletionChunk');

async function streamed(body: Record<string, unknown>) {
  const res = await post({ ...body, stream: true });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const events = await readEvents(res);
  expect(events.at(-1)).toBe('[DONE]');
  const chunks = events.slice(0, -1).map((e) => JSON.parse(e));
  for (const chunk of chunks) expect(validChunk(chunk), describeErrors(validChunk.errors)).toBe(true);
  return chunks;
}

describe('streaming', () => {
  it('sends the role first, deltas that concatenate to the JSON answer, finish_reason last, then [DONE]', async () => {
    const body = chatBody({ temperature: 0.8, seed: 3 });
    const chunks = await streamed(body);
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    expect(chunks.at(-1).choices[0].finish_reason).toBe('stop');
    for (const chunk of chunks.slice(0, -1)) expect(chunk.choices[0].finish_reason).toBeNull();
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    const whole = await (await post(body)).json();
    expect((await reassemble(chunks)).content).toBe(whole.choices[0].message.content);
    expect(chunks.length).toBeGreaterThan(5); // token by token, not in one piece
  });

  it('adds a usage chunk with include_usage', async () => {
    const chunks = await streamed(chatBody({ stream_options: { include_usage: true }, max_tokens: 6 }));
    const last = chunks.at(-1);
    expect(last.choices).toEqual([]);
    expect(last.usage.completion_tokens).toBe(6);
    expect(chunks.at(-2).choices[0].finish_reason).toBe('length');
  });

  it('streams tool calls whose arguments reassemble to valid JSON', async () => {
    const tool = { type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } } };
    const chunks = await streamed({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Look up tide tables' }], tools: [tool], tool_choice: 'required' });
    const message = await reassemble(chunks);
    expect(message.finish_reason).toBe('tool_calls');
    expect(JSON.parse(message.tool_calls![0]!.function.arguments)).toHaveProperty('query');
  });

  it('stops generating when the client goes away', async () => {
    const sink = logSink();
    const slow = await startServer({ tokenDelayMs: 25, logger: sink.logger });
    try {
      const controller = new AbortController();
      const res = await fetch(`${slow.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'x-api-key': 'sk-demo-starter', 'content-type': 'application/json' },
        body: JSON.stringify(chatBody({ stream: true })),
        signal: controller.signal,
      });
      const reader = res.body!.getReader();
      await reader.read();
      controller.abort();
      await expect.poll(() => sink.count(STREAM_ABANDONED), { timeout: 5000 }).toBe(1);
      // It stopped after the few events sent before the abort, far from the answer's end.
      const sent = sink.entries.find((e) => e.msg === STREAM_ABANDONED)!.eventsSent as number;
      expect(sent).toBeGreaterThan(0);
      expect(sent).toBeLessThan(10);
    } finally {
      await slow.close();
    }
  });
});
