// The real clients through models whose first upstream is down (decision D40): every chat model of the
// listing routed from `primary`, an OpenAI Chat Completions upstream at a port nothing listens on, to
// `standby`, a reference server behind a fault proxy that speaks Anthropic's Messages to the gateway. The
// `openai` SDK (chat completions and Responses, whole and streamed), `@anthropic-ai/sdk` (streamed) and
// Claude Code (`claude -p`) each get their answer as if nothing had failed, the SDKs never retrying by
// themselves: each request goes out once, and the standby is what served it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtInEntries } from '../../src/server/catalogue/catalogue.ts';
import type { CatalogueEntry } from '../../src/server/catalogue/catalogue-file.ts';
import { anthropicFor } from '../anthropic-sdk/sdk.ts';
import { runClaude } from '../helpers/headless-client.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { UPSTREAM_KEY } from '../helpers/upstream-gateway.ts';
import { openaiFor } from '../openai-sdk/sdk.ts';
import { deadOrigin, forward, startFaultyUpstream, type FaultyUpstream } from './faulty-upstream.ts';

let reference: TestServer;
let standby: FaultyUpstream;
let gateway: TestServer;

beforeAll(async () => {
  reference = await startServer();
  standby = await startFaultyUpstream();
  standby.answer = forward(reference.baseUrl);
  const dead = await deadOrigin();
  const catalogue: CatalogueEntry[] = builtInEntries().map((model) =>
    model.endpoints.includes('/v1/messages')
      ? {
          ...model,
          upstreams: [
            { name: 'primary', protocol: 'openai-chat', base_url: `${dead}/v1`, api_key_env: 'UPSTREAM_KEY', model: model.id },
            { name: 'standby', protocol: 'anthropic-messages', base_url: standby.origin, api_key_env: 'UPSTREAM_KEY', model: model.id },
          ],
          // Every request meets the primary's refusal: no cool-down here, so that each one shows the failover.
          routing: { cooldown: { failures: 1_000 } },
        }
      : model,
  );
  gateway = await startServer({ catalogue, environment: { UPSTREAM_KEY } });
});
afterAll(async () => {
  await gateway?.close();
  await standby?.close();
  await reference?.close();
});

describe('the official SDKs and Claude Code through a model whose first upstream is down', () => {
  it('openai: chat completions, whole and streamed; Responses streamed — one request each, served by the standby', async () => {
    const { openai, sent } = openaiFor(gateway.baseUrl, 'sk-demo-ultimate');
    const { data: completion, response } = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'What should I know about lighthouses?' }] }).withResponse();
    expect(completion.choices[0]!.message.content!.length).toBeGreaterThan(0);
    expect([response.headers.get('x-gateway-upstream'), response.headers.get('x-gateway-attempts')]).toEqual(['standby', '2']);

    let text = '';
    for await (const chunk of await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Tell me about tides.' }], stream: true })) {
      text += chunk.choices[0]?.delta.content ?? '';
    }
    expect(text.length).toBeGreaterThan(0);

    const events: string[] = [];
    for await (const event of await openai.responses.create({ model: 'gpt-4o-mini', input: 'How do I reset my password?', stream: true })) events.push(event.type);
    expect(events.at(-1)).toBe('response.completed');
    expect(sent).toEqual(['POST /v1/chat/completions', 'POST /v1/chat/completions', 'POST /v1/responses']);
  });

  it('@anthropic-ai/sdk: messages streamed, one request, served by the standby', async () => {
    const { anthropic, sent } = anthropicFor(gateway.baseUrl, { apiKey: 'sk-demo-ultimate' });
    const before = standby.received.length;
    const message = await anthropic.messages.stream({ model: 'claude-haiku-4-5', max_tokens: 256, messages: [{ role: 'user', content: 'What is the capital of France?' }] }).finalMessage();
    expect(message.content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/capital of France/) });
    expect(message.stop_reason).toBe('end_turn');
    expect(sent).toHaveLength(1);
    expect(standby.received.length).toBe(before + 1);
  });

  it('Claude Code answers as if nothing had failed', async () => {
    const before = standby.received.length;
    const run = await runClaude(gateway.baseUrl, 'What is the capital of France?', { model: 'claude-haiku-4-5', env: { ANTHROPIC_API_KEY: 'sk-demo-ultimate' } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/capital of France/);
    expect(standby.received.length).toBeGreaterThan(before);
    expect(standby.received.slice(before).every((r) => r.url.startsWith('/v1/messages'))).toBe(true);
  });
});
