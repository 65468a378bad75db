// Tools with Anthropic's SDK: tool_use blocks whose input validates, tool_choice, a tool_result round trip,
// a streamed call, and a request shaped as Claude Code sends it.
import Ajv from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { useServer } from '../helpers/server.ts';
import { claudeCodeRequest, CLAUDE_CODE_HEADERS } from './claude-code-request.ts';
import { anthropicFor, weatherTool } from './sdk.ts';

const server = useServer();
const ajv = new Ajv.default({ strict: false });

const ask = (content: string) => ({ model: 'claude-haiku-4-5', max_tokens: 1024, tools: [weatherTool], messages: [{ role: 'user' as const, content }] });

describe('Anthropic SDK: tools', () => {
  it('calls a tool with input that validates against its input_schema', async () => {
    const { anthropic } = anthropicFor(server.baseUrl);
    const message = await anthropic.messages.create(ask('What is the weather in Lisbon?'));
    expect(message.stop_reason).toBe('tool_use');
    const call = message.content.find((b) => b.type === 'tool_use');
    expect(call).toMatchObject({ type: 'tool_use', name: 'get_weather' });
    expect(call!.type === 'tool_use' && call!.id).toMatch(/^toolu_[0-9a-f]{24}$/);
    expect(ajv.validate(weatherTool.input_schema, call!.type === 'tool_use' && call!.input)).toBe(true);
  });

  it('follows tool_choice: any and a named tool call one, none answers in text', async () => {
    const { anthropic } = anthropicFor(server.baseUrl);
    const clock = { name: 'get_time', description: 'The time now.', input_schema: { type: 'object' as const, properties: {} } };
    const base = { ...ask('Tell me a joke.'), tools: [weatherTool, clock] };
    const any = await anthropic.messages.create({ ...base, tool_choice: { type: 'any' } });
    expect(any.stop_reason).toBe('tool_use');
    const named = await anthropic.messages.create({ ...base, tool_choice: { type: 'tool', name: 'get_time' } });
    expect(named.content.filter((b) => b.type === 'tool_use').map((b) => b.type === 'tool_use' && b.name)).toEqual(['get_time']);
    const none = await anthropic.messages.create({ ...ask('What is the weather in Lisbon?'), tool_choice: { type: 'none' } });
    expect(none.stop_reason).toBe('end_turn');
    expect(none.content.map((b) => b.type)).toEqual(['text']);
    const single = await anthropic.messages.create({ ...base, tool_choice: { type: 'any', disable_parallel_tool_use: true } });
    expect(single.content.filter((b) => b.type === 'tool_use')).toHaveLength(1);
  });

  it('answers a tool_result turn with text that reports it', async () => {
    const { anthropic } = anthropicFor(server.baseUrl);
    const first = await anthropic.messages.create(ask('What is the weather in Lisbon?'));
    const call = first.content.find((b) => b.type === 'tool_use')!;
    if (call.type !== 'tool_use') throw new Error('no tool call');
    const second = await anthropic.messages.create({
      ...ask('What is the weather in Lisbon?'),
      messages: [
        { role: 'user', content: 'What is the weather in Lisbon?' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: '{"temperature": 23, "sky": "sunny"}' }] },
      ],
    });
    expect(second.stop_reason).toBe('end_turn');
    const text = second.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
    expect(text).toMatch(/23/);
    expect(text).toMatch(/sunny/);
  });

  it('streams a tool call whose input_json_delta pieces add up to the non-streamed input', async () => {
    const { anthropic } = anthropicFor(server.baseUrl);
    const request = { ...ask('What is the weather in Lisbon?'), tool_choice: { type: 'any' as const } };
    const whole = await anthropic.messages.create(request);
    const stream = anthropic.messages.stream(request);
    let json = '';
    stream.on('inputJson', (partial) => (json += partial));
    const final = await stream.finalMessage();
    expect(final.content).toEqual(whole.content);
    const call = whole.content.find((b) => b.type === 'tool_use');
    expect(JSON.parse(json)).toEqual(call?.type === 'tool_use' && call.input);
    expect(final.stop_reason).toBe('tool_use');
  });

  it("answers Claude Code's reachability probe, HEAD /", async () => {
    const res = await fetch(`${server.baseUrl}/`, { method: 'HEAD' });
    expect(res.status).toBe(200);
  });

  it("takes a request as Claude Code sends it: 24 tools of 2020-12 schemas, cache_control, thinking, ~75 KB, streamed", async () => {
    const body = claudeCodeRequest();
    expect(JSON.stringify(body).length).toBeGreaterThan(70_000);
    const res = await fetch(`${server.baseUrl}/v1/messages?beta=true`, {
      method: 'POST',
      headers: { ...CLAUDE_CODE_HEADERS, authorization: 'Bearer sk-demo-pro', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await res.text();
    expect(text).toMatch(/^event: message_start\n/);
    expect(text.trimEnd()).toMatch(/event: message_stop\ndata: \{"type":"message_stop"\}$/);
  });
});
