import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { countTokens } from '../../src/server/domain/engine/text/index.ts';
import { useServer } from '../helpers/server.ts';
import { call, chatBody } from './http.ts';

const server = useServer();

const key = 'sk-demo-starter';
const chat = (body: Record<string, unknown>) => call(server.baseUrl, 'POST', '/v1/chat/completions', { key, body });

const weatherTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Current weather in a city.',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string', minLength: 1 }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] }, days: { type: 'integer', minimum: 1, maximum: 7 } },
      required: ['city', 'unit'],
      additionalProperties: false,
    },
  },
};

describe('chat completions', () => {
  it('answers in the OpenAI shape with token counts from the tokenizer', async () => {
    const res = await chat(chatBody());
    expect(res.status).toBe(200);
    const { choices, usage } = res.body;
    expect(choices[0].message.role).toBe('assistant');
    expect(choices[0].finish_reason).toBe('stop');
    expect(usage.completion_tokens).toBe(countTokens(choices[0].message.content));
    expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
  });

  it('is deterministic: same request and seed, same answer; temperature 0 ignores the seed', async () => {
    const a = await chat(chatBody({ temperature: 1, seed: 7 }));
    const b = await chat(chatBody({ temperature: 1, seed: 7 }));
    expect(b.body.choices[0].message.content).toBe(a.body.choices[0].message.content);
    const seeds = await Promise.all([1, 2, 3, 4].map((seed) => chat(chatBody({ temperature: 1.5, seed }))));
    expect(new Set(seeds.map((r) => r.body.choices[0].message.content)).size).toBeGreaterThan(1);
    const cold = await Promise.all([1, 2, 3].map((seed) => chat(chatBody({ temperature: 0, seed }))));
    expect(new Set(cold.map((r) => r.body.choices[0].message.content)).size).toBe(1);
  });

  it('honours max_tokens exactly with finish_reason length', async () => {
    for (const max of [1, 3, 10]) {
      const res = await chat(chatBody({ max_tokens: max }));
      expect(res.body.usage.completion_tokens).toBe(max);
      expect(countTokens(res.body.choices[0].message.content)).toBe(max);
      expect(res.body.choices[0].finish_reason).toBe('length');
    }
  });

  it('accepts content parts, text and image', async () => {
    const res = await chat({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
        { role: 'user', content: [{ type: 'text', text: 'What is in this picture?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] },
      ],
    });
    expect(res.status).toBe(200);
  });

  it('calls a tool with arguments valid against its schema, then answers with the tool result', async () => {
    const first = await chat({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'What is the weather in Lisbon?' }], tools: [weatherTool] });
    expect(first.body.choices[0].finish_reason).toBe('tool_calls');
    const message = first.body.choices[0].message;
    expect(message.content).toBeNull();
    const [toolCall] = message.tool_calls;
    expect(toolCall.function.name).toBe('get_weather');
    const validate = new Ajv2020().compile(weatherTool.function.parameters);
    expect(validate(JSON.parse(toolCall.function.arguments))).toBe(true);

    const second = await chat({
      model: 'gpt-4o-mini',
      tools: [weatherTool],
      messages: [
        { role: 'user', content: 'What is the weather in Lisbon?' },
        message,
        { role: 'tool', tool_call_id: toolCall.id, content: '{"temperature_c":21,"conditions":"sunny"}' },
      ],
    });
    expect(second.status).toBe(200);
    expect(second.body.choices[0].finish_reason).toBe('stop');
    expect(second.body.choices[0].message.content).toMatch(/21|sunny/);
  });

  it('follows tool_choice: none answers in text, a named function is called', async () => {
    const none = await chat({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Weather in Oslo?' }], tools: [weatherTool], tool_choice: 'none' });
    expect(none.body.choices[0].finish_reason).toBe('stop');
    const named = await chat({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Hello there' }],
      tools: [weatherTool],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
    });
    expect(named.body.choices[0].message.tool_calls[0].function.name).toBe('get_weather');
  });

  it('answers 400 naming the function when tool_choice asks for one that is not in tools', async () => {
    const res = await chat({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Hello there' }],
      tools: [weatherTool],
      tool_choice: { type: 'function', function: { name: 'book_flight' } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/'book_flight'/);
  });

  it("answers 400 to tool_choice 'required' without tools", async () => {
    const res = await chat({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello there' }], tool_choice: 'required' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/required/);
  });
});
