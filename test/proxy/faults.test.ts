/**
 * Real clients through the validating proxy to a faulty implementation: the reference server behind the
 * mutation harness's fault proxy (client → validating proxy → fault proxy → reference). Each fault the clients'
 * traffic reaches is reported once per exchange it touches, with its rule, as the server's; a request outside
 * the contract is reported as the client's.
 */
import { describe, expect, it } from 'vitest';
import type { ContractName } from '../../src/contract/index.ts';
import type { Judged } from '../../src/conformance/proxy/judge.ts';
import { anthropicFor } from '../anthropic-sdk/sdk.ts';
import { runClaude, runCodex } from '../helpers/headless-client.ts';
import { faults } from '../mutation/faults.ts';
import { openaiFor, weatherTool } from '../openai-sdk/sdk.ts';
import { startProxied, violationLines } from './proxied.ts';

/** Runs `traffic` through the proxy to the server with `fault`, and returns what the proxy judged. */
async function through(fault: string | undefined, contracts: ContractName[], traffic: (baseUrl: string) => Promise<unknown>): Promise<Judged[]> {
  const proxied = await startProxied({ contracts, ...(fault ? { fault: faults[fault]! } : {}) });
  try {
    await traffic(proxied.baseUrl).catch(() => undefined);
    await proxied.proxy.settled();
    return proxied.judged.flat();
  } finally {
    await proxied.close();
  }
}

/** The exchanges that broke `rule`, each checked to have broken it once, on the server's side. */
function brokeOnce(judged: Judged[], rule: string): Judged[] {
  const broke = judged.filter((j) => j.violations.some((v) => v.ruleId === rule));
  for (const j of broke) {
    const hits = j.violations.filter((v) => v.ruleId === rule);
    expect(hits, `${j.id}: ${violationLines([[j]]).join('\n')}`).toHaveLength(1);
    expect(hits[0]!.side).toBe('server');
  }
  return broke;
}

const question = { model: 'gpt-4o-mini', temperature: 0, messages: [{ role: 'user' as const, content: 'What is the capital of France?' }] };

describe('a faulty implementation behind the proxy', () => {
  it('usage-total-off: the openai SDK\'s chat and chat stream, each exchange reported once for openai/usage-totals', async () => {
    const judged = await through('usage-total-off', ['openai'], async (baseUrl) => {
      const { openai } = openaiFor(baseUrl, 'sk-demo-pro');
      await openai.chat.completions.create(question);
      for await (const _ of await openai.chat.completions.create({ ...question, stream: true, stream_options: { include_usage: true } }));
    });
    expect(brokeOnce(judged, 'openai/usage-totals')).toHaveLength(2);
  });

  it('chat-tool-call-unopened: a streamed tool call without its id and name, reported for openai/chat-stream', async () => {
    const judged = await through('chat-tool-call-unopened', ['openai'], async (baseUrl) => {
      const { openai } = openaiFor(baseUrl, 'sk-demo-pro');
      for await (const _ of await openai.chat.completions.create({ ...question, stream: true, tools: [weatherTool], tool_choice: 'required' }));
    });
    expect(brokeOnce(judged, 'openai/chat-stream')).toHaveLength(1);
  });

  it('responses-created-completed: the SDK\'s responses.stream, reported for openai/responses-stream', async () => {
    const judged = await through('responses-created-completed', ['openai'], async (baseUrl) => {
      await openaiFor(baseUrl, 'sk-demo-pro').openai.responses.stream({ model: 'gpt-4o-mini', input: 'Hello' }).finalResponse();
    });
    expect(brokeOnce(judged, 'openai/responses-stream')).toHaveLength(1);
  });

  it('messages-tool-use-end-turn: the anthropic SDK\'s tool call, plain and streamed, reported for anthropic/stop-reasons', async () => {
    const judged = await through('messages-tool-use-end-turn', ['anthropic'], async (baseUrl) => {
      const { anthropic } = anthropicFor(baseUrl, { apiKey: 'sk-demo-economy' });
      const tool = { name: 'get_weather', description: 'Weather in a city.', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } } } };
      const request = { model: 'claude-haiku-4-5', max_tokens: 256, tools: [tool], tool_choice: { type: 'any' as const }, messages: [{ role: 'user' as const, content: 'Weather in Lisbon?' }] };
      await anthropic.messages.create(request);
      await anthropic.messages.stream(request).finalMessage();
    });
    expect(brokeOnce(judged, 'anthropic/stop-reasons')).toHaveLength(2);
  });

  it('messages-error-type-wrong: Claude Code with a wrong key, reported for anthropic/error-object', async () => {
    const judged = await through('messages-error-type-wrong', ['anthropic'], (baseUrl) => runClaude(baseUrl, 'Hello', { env: { ANTHROPIC_API_KEY: 'sk-not-a-key' } }));
    expect(brokeOnce(judged, 'anthropic/error-object').length).toBeGreaterThan(0);
  }, 90_000);

  it('responses-item-id-mismatch: Codex CLI\'s streamed response, reported for openai/responses-stream', async () => {
    const judged = await through('responses-item-id-mismatch', ['openai'], (baseUrl) => runCodex(baseUrl, 'What is the capital of France?', { key: 'sk-demo-starter' }));
    expect(brokeOnce(judged, 'openai/responses-stream').length).toBeGreaterThan(0);
  }, 90_000);
});

describe('a client outside the contract', () => {
  it('is reported as the client\'s, and the server\'s refusal is no violation', async () => {
    const judged = await through(undefined, ['gateway', 'anthropic'], async (baseUrl) => {
      await fetch(`${baseUrl}/v1/chat/completions`, { method: 'POST', headers: { 'x-api-key': 'sk-demo-pro', 'content-type': 'application/json' }, body: JSON.stringify({ ...question, temperature: 9 }) });
      // Anthropic's protocol wants anthropic-version on every request.
      await fetch(`${baseUrl}/v1/messages`, { method: 'POST', headers: { 'x-api-key': 'sk-demo-pro', 'content-type': 'application/json' }, body: JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] }) });
    });
    const chat = judged.find((j) => j.operationId === 'createChatCompletion')!;
    expect(chat.violations.map((v) => [v.side, v.ruleId])).toEqual([['client', 'gateway/invalid-request']]);
    expect(chat.violations[0]!.message).toMatch(/temperature must be <= 2/);
    const message = judged.find((j) => j.contract === 'anthropic')!;
    expect(message.violations.map((v) => [v.side, v.message])).toEqual([['client', 'the required header anthropic-version is missing']]);
    // The gateway's own contract makes the header optional: no violation there.
    expect(judged.find((j) => j.contract === 'gateway' && j.operationId === 'createMessage')!.violations).toEqual([]);
  });
});
