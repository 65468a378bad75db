// Function tools with the openai SDK: tool call, tool result, final answer; and the SDK's stream helper
// reassembling tool-call arguments from their pieces.
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { useServer } from '../helpers/server.ts';
import { openaiFor, weatherTool } from './sdk.ts';

const server = useServer();

const ask: OpenAI.ChatCompletionMessageParam = { role: 'user', content: 'What is the weather in Paris?' };

describe('openai SDK: tools', () => {
  it('makes a full round trip: tool call, tool result, final text answer', async () => {
    const { openai } = openaiFor(server.baseUrl);
    const first = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [ask], tools: [weatherTool] });
    const choice = first.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    const call = choice.message.tool_calls?.[0];
    if (call?.type !== 'function') throw new Error(`expected a function call, got ${JSON.stringify(choice.message)}`);
    expect(call.function.name).toBe('get_weather');
    expect(JSON.parse(call.function.arguments)).toMatchObject({ city: expect.any(String) });

    // The SDK's own message object goes back as it came (content: null, tool_calls), then the tool's result.
    const result = { temperature: 21, condition: 'sunny' };
    const second = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [ask, choice.message, { role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) }],
      tools: [weatherTool],
    });
    expect(second.choices[0]?.finish_reason).toBe('stop');
    expect(second.choices[0]?.message.tool_calls ?? []).toEqual([]);
    expect(second.choices[0]?.message.content).toMatch(/21/);
  });

  it('chat.completions.stream(...).finalChatCompletion() reassembles the tool-call arguments', async () => {
    const { openai } = openaiFor(server.baseUrl);
    const request = { model: 'gpt-4o-mini', messages: [ask], tools: [weatherTool], seed: 3 };
    const whole = await openai.chat.completions.create(request);
    const stream = openai.chat.completions.stream(request);
    let argumentPieces = 0;
    stream.on('tool_calls.function.arguments.delta', () => argumentPieces++);
    const final = await stream.finalChatCompletion();
    expect(argumentPieces).toBeGreaterThan(1);
    const streamedCall = final.choices[0]?.message.tool_calls?.[0];
    const wholeCall = whole.choices[0]?.message.tool_calls?.[0];
    if (streamedCall?.type !== 'function' || wholeCall?.type !== 'function') throw new Error('expected function calls');
    expect(streamedCall.function).toEqual(wholeCall.function);
    expect(JSON.parse(streamedCall.function.arguments)).toMatchObject({ city: expect.any(String) });
    expect(final.choices[0]?.finish_reason).toBe('tool_calls');
  });
});
