import { describe, expect, it } from 'vitest';
import { answerChat, countTokens, TextEngineError } from '../../src/server/domain/engine/text/index.ts';
import { assistantCalls, chat, STOCKS, tool, toolResult, user, WEATHER } from './requests.ts';

const TIME = tool('get_time', 'Current local time in a timezone.', {
  type: 'object',
  properties: { timezone: { type: 'string' } },
  required: ['timezone'],
});
const NO_PARAMS = tool('get_random_joke', 'Tells a random joke.');

function names(answer: ReturnType<typeof answerChat>): string[] {
  return answer.toolCalls.map((call) => call.name);
}

describe('tool_choice auto (the default with tools)', () => {
  it('calls the tool whose name the user mentions, with arguments from the message', () => {
    const answer = answerChat(chat([user('What is the weather in Paris?')], { tools: [STOCKS, WEATHER, TIME] }));
    expect(answer.content).toBeNull();
    expect(answer.contentPieces).toEqual([]);
    expect(answer.finishReason).toBe('tool_calls');
    expect(names(answer)).toEqual(['get_weather']);
    expect(JSON.parse(answer.toolCalls[0]?.arguments ?? '')).toEqual({ city: 'Paris' });
  });

  it('takes a multi-word place name whole', () => {
    const answer = answerChat(chat([user("What's the weather like in New York today?")], { tools: [WEATHER] }));
    expect(JSON.parse(answer.toolCalls[0]?.arguments ?? '')).toEqual({ city: 'New York' });
  });

  it('matches description words too, and calls several fitting tools in parallel', () => {
    expect(names(answerChat(chat([user('What is the latest price of the ticker AAPL?')], { tools: [WEATHER, STOCKS] })))).toEqual([
      'get_stock_price',
    ]);
    const both = answerChat(chat([user('What is the weather in Oslo and the local time there?')], { tools: [STOCKS, WEATHER, TIME] }));
    expect(names(both).sort()).toEqual(['get_time', 'get_weather']);
    const one = answerChat(
      chat([user('What is the weather in Oslo and the local time there?')], { tools: [STOCKS, WEATHER, TIME], parallelToolCalls: false }),
    );
    expect(one.toolCalls).toHaveLength(1);
  });

  it('answers in text when no tool fits and there are several', () => {
    const answer = answerChat(chat([user('Tell me a story about dragons')], { tools: [WEATHER, STOCKS] }));
    expect(answer.toolCalls).toEqual([]);
    expect(answer.finishReason).toBe('stop');
    expect(answer.content).toMatch(/dragons/);
  });

  it('calls the only tool there is', () => {
    expect(names(answerChat(chat([user('Hello there')], { tools: [NO_PARAMS] })))).toEqual(['get_random_joke']);
  });

  it('answers in text after tool results instead of calling again', () => {
    const answer = answerChat(
      chat([user('Weather in Paris?'), assistantCalls([{ id: 'c1', name: 'get_weather', arguments: '{"city":"Paris"}' }]), toolResult('c1', '{"temp":3}')], {
        tools: [WEATHER],
      }),
    );
    expect(answer.toolCalls).toEqual([]);
    expect(answer.finishReason).toBe('stop');
    expect(answer.content).toMatch(/temp is 3/);
  });
});

describe('other tool_choice values', () => {
  it('none never calls a tool', () => {
    const answer = answerChat(chat([user('What is the weather in Paris?')], { tools: [WEATHER], toolChoice: 'none' }));
    expect(answer.toolCalls).toEqual([]);
    expect(answer.content).toMatch(/weather|Paris/);
  });

  it('required always calls one: the best fit, else the first', () => {
    expect(names(answerChat(chat([user('Tell me a story')], { tools: [STOCKS, WEATHER], toolChoice: 'required' })))).toEqual(['get_stock_price']);
    expect(names(answerChat(chat([user('How warm is the weather?')], { tools: [STOCKS, WEATHER], toolChoice: 'required' })))).toEqual(['get_weather']);
    const afterTool = answerChat(
      chat([user('Weather?'), assistantCalls([{ id: 'c1', name: 'get_weather', arguments: '{}' }]), toolResult('c1', 'ok')], {
        tools: [WEATHER],
        toolChoice: 'required',
      }),
    );
    expect(afterTool.finishReason).toBe('tool_calls');
  });

  it('a named function is called even when nothing mentions it', () => {
    const answer = answerChat(chat([user('Hello')], { tools: [WEATHER, STOCKS], toolChoice: { type: 'function', function: { name: 'get_stock_price' } } }));
    expect(names(answer)).toEqual(['get_stock_price']);
    expect(JSON.parse(answer.toolCalls[0]?.arguments ?? '').ticker).toMatch(/^[A-Z]{1,5}$/);
  });

  it('a named function missing from tools, or required without tools, is an engine error', () => {
    expect(() => answerChat(chat([user('Hi')], { tools: [WEATHER], toolChoice: { type: 'function', function: { name: 'nope' } } }))).toThrow(TextEngineError);
    expect(() => answerChat(chat([user('Hi')], { toolChoice: 'required' }))).toThrow(/required/);
  });
});

describe('tool call shape', () => {
  it('has deterministic call_<24 hex> ids, distinct within an answer', () => {
    const answer = answerChat(chat([user('What is the weather in Oslo and the local time there?')], { tools: [WEATHER, TIME] }));
    const ids = answer.toolCalls.map((call) => call.id);
    for (const id of ids) expect(id).toMatch(/^call_[0-9a-f]{24}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gives {} for a function without parameters', () => {
    const answer = answerChat(chat([user('joke please')], { tools: [NO_PARAMS] }));
    expect(answer.toolCalls[0]?.arguments).toBe('{}');
  });

  it('streams arguments in pieces and counts names and arguments as completion tokens', () => {
    const answer = answerChat(chat([user('What is the weather in Zürich, in fahrenheit?')], { tools: [WEATHER, TIME] }));
    const [call] = answer.toolCalls;
    expect(JSON.parse(call?.arguments ?? '')).toEqual({ city: 'Zürich', unit: 'fahrenheit' });
    expect(call?.argumentPieces.join('')).toBe(call?.arguments);
    expect(call?.argumentPieces.every((p) => p.length > 0)).toBe(true);
    expect(answer.completionTokens).toBe(countTokens('get_weather') + countTokens(call?.arguments ?? ''));
  });

  it('cuts arguments at max_tokens with finish_reason length', () => {
    const full = answerChat(chat([user('What is the weather in Paris?')], { tools: [WEATHER] }));
    const limit = full.completionTokens - 2;
    const cut = answerChat(chat([user('What is the weather in Paris?')], { tools: [WEATHER], maxTokens: limit }));
    expect(cut.finishReason).toBe('length');
    expect(cut.completionTokens).toBe(limit);
    expect(full.toolCalls[0]?.arguments.startsWith(cut.toolCalls[0]?.arguments ?? 'x')).toBe(true);
    expect(cut.toolCalls[0]?.id).toBe(full.toolCalls[0]?.id);
  });
});
