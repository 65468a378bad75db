/**
 * The real clients through a gateway in upstream mode (decision D31), each to an upstream of another
 * protocol than its own: Claude Code (`claude -p`, Anthropic Messages) to a gateway whose models are on an
 * OpenAI Chat Completions upstream, with a tool round trip (it runs its Read tool and sends the result back);
 * Codex CLI (`codex exec`, OpenAI Responses) to a gateway whose models are on an Anthropic Messages upstream.
 * Recording proxies show what the client sent the gateway and what the upstream received.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runClaude, runCodex } from '../helpers/headless-client.ts';
import { startRecordingProxy, type RecordingProxy } from '../helpers/recording-proxy.ts';
import { startUpstreamPair, type TextProtocol, type UpstreamPair } from '../helpers/upstream-gateway.ts';

/** A pair for the file's tests, with a recording proxy in front of its gateway as well (closed after them). */
function usePair(protocol: TextProtocol): { readonly pair: UpstreamPair; readonly client: RecordingProxy } {
  let pair: UpstreamPair | undefined;
  let client: RecordingProxy | undefined;
  beforeAll(async () => {
    pair = await startUpstreamPair(protocol, { recordUpstream: true });
    client = await startRecordingProxy(pair.gateway.baseUrl);
  });
  afterAll(async () => {
    await client?.close();
    await pair?.close();
  });
  return {
    get pair() {
      if (!pair) throw new Error('The pair starts in beforeAll.');
      return pair;
    },
    get client() {
      if (!client) throw new Error('The pair starts in beforeAll.');
      return client;
    },
  };
}

type ChatMessage = { role: string; content?: unknown; tool_calls?: Array<{ id: string; function: { name: string } }>; tool_call_id?: string };

describe('Claude Code → gateway → an openai-chat upstream', () => {
  const setup = usePair('openai-chat');

  it('answers a prompt: /v1/messages?beta=true at the gateway, a streamed /v1/chat/completions at the upstream', async () => {
    const { pair, client } = setup;
    const run = await runClaude(client.baseUrl, 'What is the capital of France?', { env: { ANTHROPIC_AUTH_TOKEN: 'sk-demo-pro' } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/capital of France/);
    expect(client.seen.map((r) => r.request)).toContain('POST /v1/messages?beta=true');
    const upstream = pair.upstreamSeen.splice(0);
    expect(upstream.map((r) => r.request)).toEqual(['POST /v1/chat/completions']);
    // Claude Code's request in Chat Completions' terms: its system prompt a system message, its tools functions.
    const body = upstream[0]!.body as { model: string; stream: boolean; messages: ChatMessage[]; tools: Array<{ type: string; function: { name: string } }> };
    expect(body).toMatchObject({ model: 'claude-sonnet-4-5', stream: true, stream_options: { include_usage: true } });
    expect(body.messages[0]!.role).toBe('system');
    expect(body.tools.map((t) => t.type)).toEqual(body.tools.map(() => 'function'));
    expect(body.tools.map((t) => t.function.name)).toContain('Read');
  }, 120_000);

  it("runs a tool round trip: the upstream's next request answers each call with a tool message of its id", async () => {
    const { pair } = setup;
    pair.upstreamSeen.length = 0;
    const run = await runClaude(setup.client.baseUrl, 'Read the file notes.txt in this folder and tell me what it says.', { env: { ANTHROPIC_AUTH_TOKEN: 'sk-demo-pro' } });
    expect(run.code, run.stderr).toBe(0);
    // Claude Code ran its Read tool (the file is not there) and the final answer reports what it returned.
    expect(run.stdout).toMatch(/Read returned: "File does not exist\./);
    const [first, second, ...rest] = pair.upstreamSeen;
    expect(rest).toEqual([]);
    expect([first?.request, second?.request]).toEqual(['POST /v1/chat/completions', 'POST /v1/chat/completions']);
    const messages = (second!.body as { messages: ChatMessage[] }).messages;
    const asked = messages.findLast((m) => m.role === 'assistant')!;
    const calls = asked.tool_calls ?? [];
    expect(calls.map((c) => c.function.name)).toContain('Read');
    // Each call answered by a tool message with the same id, right after the assistant's turn.
    const answers = messages.slice(messages.indexOf(asked) + 1);
    expect(answers.map((m) => m.role)).toEqual(calls.map(() => 'tool'));
    expect(answers.map((m) => m.tool_call_id)).toEqual(calls.map((c) => c.id));
    expect(answers[calls.findIndex((c) => c.function.name === 'Read')]!.content).toMatch(/File does not exist/);
    // What the first request asked for is what the second one repeats: the conversation is resent whole.
    expect(messages.slice(0, messages.indexOf(asked))).toEqual((first!.body as { messages: ChatMessage[] }).messages);
  }, 120_000);
});

describe('Codex CLI → gateway → an anthropic-messages upstream', () => {
  const setup = usePair('anthropic-messages');

  it('answers a prompt: a streamed /v1/responses at the gateway, a streamed /v1/messages at the upstream', async () => {
    const { pair, client } = setup;
    const run = await runCodex(client.baseUrl, 'What is the capital of France?', { key: 'sk-demo-starter' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/capital of France/);
    const sent = client.seen.find((r) => r.request === 'POST /v1/responses');
    expect(sent?.body).toMatchObject({ model: 'gpt-4o-mini', stream: true, store: false });
    const upstream = pair.upstreamSeen;
    expect(upstream.map((r) => r.request)).toEqual(['POST /v1/messages']);
    // Codex's request in Anthropic's terms: its instructions the system prompt, its function tools Anthropic's.
    const body = upstream[0]!.body as { model: string; stream: boolean; system: unknown[]; tools: Array<Record<string, unknown>>; messages: Array<{ role: string; content: Array<{ type: string; text?: string }> }> };
    expect(body).toMatchObject({ model: 'gpt-4o-mini', stream: true, max_tokens: expect.any(Number) });
    expect(body.system.length).toBeGreaterThan(0);
    expect(body.tools.length).toBeGreaterThan(0);
    for (const tool of body.tools) expect(Object.keys(tool).sort()).toEqual(['description', 'input_schema', 'name']);
    expect(body.messages.at(-1)).toEqual({ role: 'user', content: [{ type: 'text', text: 'What is the capital of France?' }] });
  }, 120_000);
});
