/**
 * Small builders for engine requests, so each test states only what it is about. Messages are written
 * as they arrive on the wire (`role: 'user'`), which the generated union types do not describe, hence
 * the casts.
 */
import type { ChatRequest } from '../../src/server/domain/chat.ts';

type Wire = Record<string, unknown>;

export function user(content: unknown): Wire {
  return { role: 'user', content };
}

export function system(content: string): Wire {
  return { role: 'system', content };
}

export function assistantCalls(calls: Array<{ id: string; name: string; arguments: string }>): Wire {
  return {
    role: 'assistant',
    content: null,
    tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
  };
}

export function toolResult(id: string, content: string): Wire {
  return { role: 'tool', tool_call_id: id, content };
}

export function chat(messages: Wire[], extra: Partial<Omit<ChatRequest, 'messages'>> = {}): ChatRequest {
  return { model: 'gpt-4o-mini', messages: messages as unknown as ChatRequest['messages'], ...extra };
}

export function tool(name: string, description?: string, parameters?: unknown): NonNullable<ChatRequest['tools']>[number] {
  return {
    type: 'function',
    function: { name, ...(description && { description }), ...(parameters !== undefined && { parameters }) },
  } as NonNullable<ChatRequest['tools']>[number];
}

export const WEATHER = tool('get_weather', 'Current weather in a city.', {
  type: 'object',
  properties: {
    city: { type: 'string' },
    unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
  },
  required: ['city'],
  additionalProperties: false,
});

export const STOCKS = tool('get_stock_price', 'Latest stock price for a ticker symbol.', {
  type: 'object',
  properties: { ticker: { type: 'string', pattern: '^[A-Z]{1,5}$' } },
  required: ['ticker'],
});

/** Questions of every intent the engine knows, for tests that must hold for all of them. */
export const QUESTIONS = [
  'What is the capital of France?',
  'How do I reset my password?',
  'Why is the sky blue?',
  'Write a haiku about the sea.',
  'List some tips for learning Spanish',
  'Can you help me with my essay on climate change?',
  'Hello!',
  'Thanks a lot!',
  'Is it safe to swim after eating?',
  'I just moved to Zürich and love the lake.',
  'Tell me about the history of 日本 and its cities 🎌',
  'Explain quantum computing to me like I am five',
  'ok',
];

/** Three parallel calls answered by three tools: a plain-text result, an array of parts and a JSON list. */
export const PARALLEL_TOOL_RESULTS: Wire[] = [
  user('Weather in Paris and Rome?'),
  assistantCalls([
    { id: 'c1', name: 'get_forecast', arguments: '{"city":"Paris"}' },
    { id: 'c2', name: 'get_weather', arguments: '{"city":"Rome"}' },
    { id: 'c3', name: 'list_alerts', arguments: '{}' },
  ]),
  toolResult('c1', 'Light rain, 14°C in Paris'),
  toolResult('c2', [{ type: 'text', text: '{"temperature": 25}' }] as unknown as string),
  toolResult('c3', '["flood","wind"]'),
];
