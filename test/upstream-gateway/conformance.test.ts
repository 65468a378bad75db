/**
 * The conformance suite (the gateway's contract, the demo key of every tier) against a gateway in upstream
 * mode (decision D31), for each text protocol an upstream may speak: every chat model of the built-in listing
 * answered by a reference server in that protocol, through a recording proxy that shows what it received.
 * The core and the full profile find nothing but the checks listed in UPSTREAM_LIMITS, each failing for the
 * reason written there and no other. And an upstream that counts the input tokens its own way: the stream's
 * `message_start` says the gateway's count, `message_delta` the upstream's, and the suite reads the latter.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ProfileName } from '../../src/conformance/profiles.ts';
import { formatReport } from '../../src/conformance/report/console.ts';
import type { Report } from '../../src/conformance/results.ts';
import { runConformance } from '../../src/conformance/run.ts';
import { demoKeys } from '../conformance/helpers/keys.ts';
import { startFaultProxy, type Fault, type FaultProxy, type ProxiedResponse } from '../mutation/proxy.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { startUpstreamPair, upstreamCatalogue, baseUrlFor, UPSTREAM_KEY, type TextProtocol, type UpstreamPair } from '../helpers/upstream-gateway.ts';

const PROTOCOLS: TextProtocol[] = ['openai-chat', 'openai-responses', 'anthropic-messages'];

/** Where each protocol's answers are asked for at the upstream (the pair's upstream is a reference server). */
const UPSTREAM_PATH: Record<TextProtocol, string> = {
  'openai-chat': '/v1/chat/completions',
  'openai-responses': '/v1/responses',
  'anthropic-messages': '/v1/messages',
};

interface Limit {
  /** The check's id. */
  id: string;
  /** The profiles that run it. */
  profiles: ProfileName[];
  /** What every violation it reports says. */
  says: RegExp;
}

const BOTH: ProfileName[] = ['core', 'full'];
const refusal = (protocol: string, what: string) =>
  new RegExp(`: expected a success, got 400 \\(This model's upstream speaks ${protocol}, which cannot take the request: ${what}`);

/**
 * The checks a gateway in upstream mode cannot pass, and why. Each is a promise of the reference's engine
 * that an upstream's protocol cannot keep (D31: what the upstream's protocol cannot take is a 400 naming it),
 * or that the reference server, standing in for the upstream here, does not keep in that protocol:
 *
 * - Anthropic Messages: its temperature ends at 1 (the contract's at 2) and it has no JSON-object mode: 400s
 *   that say so. A JSON schema goes to it as `output_config.format`, which the reference's Messages endpoint
 *   accepts and ignores (AnthropicMessagesRequest), so the answer is prose. The prompt endpoint's temperature
 *   check is in the full profile only.
 */
const UPSTREAM_LIMITS: Record<TextProtocol, Limit[]> = {
  // Stop sequences, which OpenAI's protocols cannot keep as Anthropic's clients expect, are the gateway's
  // own (upstream/stop-sequences.ts): nothing is left to fail.
  'openai-chat': [],
  'openai-responses': [],
  'anthropic-messages': [
    { id: 'createTextCompletion/behaviour/temperature-bounds', profiles: ['full'], says: refusal('Anthropic Messages', 'its temperature ranges from 0 to 1 and the request asks for 2') },
    { id: 'createChatCompletion/behaviour/temperature-bounds', profiles: BOTH, says: refusal('Anthropic Messages', 'its temperature ranges from 0 to 1 and the request asks for 2') },
    { id: 'createChatCompletion/behaviour/structured-output', profiles: BOTH, says: /^the output is not JSON: / },
    { id: 'createChatCompletion/behaviour/json-object', profiles: BOTH, says: refusal('Anthropic Messages', 'it has no JSON-object mode') },
    { id: 'createResponse/behaviour/temperature-bounds', profiles: BOTH, says: refusal('Anthropic Messages', 'its temperature ranges from 0 to 1 and the request asks for 2') },
    { id: 'createResponse/behaviour/structured-output', profiles: BOTH, says: /^the output is not JSON: / },
    { id: 'createResponse/behaviour/json-object', profiles: BOTH, says: refusal('Anthropic Messages', 'it has no JSON-object mode') },
  ],
};

let pair: UpstreamPair | undefined;
const closing: Array<{ close(): Promise<void> }> = [];

afterEach(async () => {
  await pair?.close();
  pair = undefined;
  for (const thing of closing.splice(0).reverse()) await thing.close();
});

function failed(report: Report) {
  return report.results.filter((r) => r.outcome === 'failed');
}

describe.each(PROTOCOLS)('the conformance suite against a gateway whose chat models are on an %s upstream', (protocol) => {
  it.each(['core', 'full'] as const)('%s profile: nothing fails but the upstream limits, each for its reason', async (profile) => {
    pair = await startUpstreamPair(protocol, { recordUpstream: true });
    const report = await runConformance({ baseUrl: pair.gateway.baseUrl, profile, destructive: profile === 'full', keys: demoKeys });
    const limits = UPSTREAM_LIMITS[protocol].filter((l) => l.profiles.includes(profile));

    expect(failed(report).map((r) => r.id).sort(), formatReport(report)).toEqual(limits.map((l) => l.id).sort());
    for (const result of failed(report)) {
      const limit = limits.find((l) => l.id === result.id)!;
      expect(result.violations.length).toBeGreaterThan(0);
      for (const violation of result.violations) expect(violation.message, result.id).toMatch(limit.says);
    }
    if (profile === 'full') {
      // As against the reference alone: skipped only where the listing has no model above the ultimate tier.
      expect(report.results.filter((r) => r.outcome === 'skipped').map((r) => r.id)).toEqual(['general/tiers/ultimate-refused']);
    }

    // The answers came from the upstream, in its protocol only, and the requests it could not take never reached it.
    const seen = pair.upstreamSeen;
    const paths = new Set(seen.map((r) => r.request.split('?')[0]));
    expect([...paths]).toEqual([`POST ${UPSTREAM_PATH[protocol]}`]);
    expect(seen.length).toBeGreaterThan(20);
    if (protocol === 'anthropic-messages') {
      expect(seen.some((r) => (r.body.temperature as number) > 1)).toBe(false);
      // The JSON schema was sent in Anthropic's terms; it is the reference upstream that answers prose.
      expect(seen.some((r) => (r.body.output_config as { format?: { type?: unknown } } | undefined)?.format?.type === 'json_schema')).toBe(true);
    }
    if (protocol === 'openai-chat') {
      const stops = seen.filter((r) => Array.isArray(r.body.stop)).map((r) => r.body.stop);
      expect(stops).toEqual([[expect.stringMatching(/^[A-Za-z]{4,}$/)]]);
    }
    if (protocol === 'openai-responses') expect(seen.some((r) => 'stop' in r.body || 'stop_sequences' in r.body)).toBe(false);
  }, 300_000);
});

/** How many input tokens the distorting upstream adds to what it reports. */
const EXTRA = 7;

/** Adds EXTRA to the prompt tokens of a chat completion's usage, and keeps its total right. */
function inflate(usage: unknown): void {
  if (typeof usage !== 'object' || usage === null) return;
  const u = usage as { prompt_tokens?: number; total_tokens?: number };
  if (typeof u.prompt_tokens === 'number') u.prompt_tokens += EXTRA;
  if (typeof u.total_tokens === 'number') u.total_tokens += EXTRA;
}

/**
 * An OpenAI chat upstream whose tokenizer is not the gateway's: its usage counts EXTRA more input tokens,
 * in its JSON answers and in its streams' usage chunk.
 */
const otherTokenizer: Fault = {
  response(response: ProxiedResponse) {
    if (response.status !== 200 || !(response.headers['content-type'] ?? '').includes('json')) return;
    const body = JSON.parse(response.body.toString('utf8')) as { usage?: unknown };
    inflate(body.usage);
    response.body = Buffer.from(JSON.stringify(body));
  },
  stream: () => ({
    event(event) {
      if (event.data === undefined || event.data === '[DONE]') return [event.frame];
      const chunk = JSON.parse(event.data) as { usage?: unknown };
      if (!chunk.usage) return [event.frame];
      inflate(chunk.usage);
      return [event.frame.replace(/^data: .*$/m, `data: ${JSON.stringify(chunk)}`)];
    },
  }),
};

describe('an upstream that counts input tokens its own way (D31)', () => {
  it("message_start says count_tokens' count, message_delta the upstream's, which the suite reads as the stream's", async () => {
    const upstream: TestServer = await startServer({ store: 'memory' });
    closing.push(upstream);
    const proxy: FaultProxy = await startFaultProxy({ target: upstream.baseUrl, fault: otherTokenizer });
    closing.push(proxy);
    const gateway = await startServer({ store: 'memory', catalogue: upstreamCatalogue('openai-chat', baseUrlFor('openai-chat', proxy.baseUrl)), environment: { UPSTREAM_KEY } });
    closing.push(gateway);

    const headers = { 'x-api-key': demoKeys.pro, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' };
    const request = { model: 'claude-haiku-4-5', max_tokens: 200, messages: [{ role: 'user', content: 'What is the capital of France?' }] };
    const post = (path: string, body: object) => fetch(`${gateway.baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });

    const counted = (await (await post('/v1/messages/count_tokens', { model: request.model, messages: request.messages })).json()) as { input_tokens: number };
    const whole = await post('/v1/messages', request);
    const message = (await whole.json()) as { usage: { input_tokens: number; output_tokens: number } };
    // Billing is the upstream's usage.
    expect(message.usage.input_tokens).toBe(counted.input_tokens + EXTRA);
    expect(whole.headers.get('x-gateway-billed-tokens')).toBe(String(message.usage.input_tokens + message.usage.output_tokens));

    const streamed = await post('/v1/messages', { ...request, stream: true });
    expect(streamed.status).toBe(200);
    // Its cost is known only at its end: the multiplier alone.
    expect(streamed.headers.get('x-gateway-multiplier')).toBe('1');
    expect(streamed.headers.has('x-gateway-billed-tokens')).toBe(false);
    const events = (await streamed.text()).split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)) as Record<string, any>);
    expect(events.find((e) => e.type === 'message_start')?.message.usage.input_tokens).toBe(counted.input_tokens);
    expect(events.find((e) => e.type === 'message_delta')?.usage).toEqual({ output_tokens: message.usage.output_tokens, input_tokens: counted.input_tokens + EXTRA });

    const report = await runConformance({ baseUrl: gateway.baseUrl, keys: demoKeys, only: ['createMessage/streaming/input-tokens'] });
    expect(report.results.map((r) => [r.id, r.outcome]), formatReport(report)).toEqual([['createMessage/streaming/input-tokens', 'passed']]);
  }, 60_000);
});
