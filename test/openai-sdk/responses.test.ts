// The Responses API with the official openai SDK (decision D29): responses.create plain and streamed, the
// responses.stream helper, function tools and their output, structured output (also chat's
// response_format), stored responses with previous_response_id, and each error class.
import Ajv from 'ajv/dist/2020.js';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { useServer } from '../helpers/server.ts';
import { openaiFor } from './sdk.ts';

const server = useServer();
const ajv = new Ajv.default({ strict: false });

const weather = {
  type: 'function' as const,
  name: 'get_weather',
  description: 'Current weather in a city.',
  strict: true,
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
};
const city = {
  type: 'object',
  properties: { name: { type: 'string' }, country: { type: 'string' }, best_months: { type: 'array', items: { type: 'string' }, minItems: 1 } },
  required: ['name', 'country', 'best_months'],
  additionalProperties: false,
};

describe('openai SDK: responses', () => {
  it('answers responses.create with output_text, usage and a stored id, at {base_url}/v1', async () => {
    const { openai, sent } = openaiFor(server.baseUrl);
    const response = await openai.responses.create({ model: 'gpt-4o-mini', instructions: 'Be concise.', input: 'What is the capital of France?' });
    expect(response).toMatchObject({ object: 'response', status: 'completed', model: 'gpt-4o-mini', error: null, incomplete_details: null, store: true });
    expect(response.id).toMatch(/^resp_[0-9a-f]{24}$/);
    expect(response.output_text).toMatch(/capital of France/);
    expect(response.usage!.total_tokens).toBe(response.usage!.input_tokens + response.usage!.output_tokens);
    expect(sent).toEqual(['POST /v1/responses']);
  });

  it('streams events with rising sequence numbers whose deltas add up to the same response', async () => {
    const { openai } = openaiFor(server.baseUrl);
    const request = { model: 'gpt-4o-mini', input: 'Name three colours of the sea.', store: false };
    const whole = await openai.responses.create(request);
    const stream = await openai.responses.create({ ...request, stream: true });
    const types: string[] = [];
    const sequence: number[] = [];
    let text = '';
    let completed: OpenAI.Responses.Response | undefined;
    for await (const event of stream) {
      types.push(event.type);
      sequence.push(event.sequence_number);
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') completed = event.response;
    }
    expect(sequence).toEqual(sequence.map((_, i) => i));
    expect(types.slice(0, 4)).toEqual(['response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added']);
    expect(types.slice(-4)).toEqual(['response.output_text.done', 'response.content_part.done', 'response.output_item.done', 'response.completed']);
    expect(text).toBe(whole.output_text);
    expect(completed?.usage).toEqual(whole.usage);

    const helper = openai.responses.stream(request);
    let helped = '';
    helper.on('response.output_text.delta', (event) => (helped += event.delta));
    const final = await helper.finalResponse();
    expect(helped).toBe(whole.output_text);
    expect(final.output_text).toBe(whole.output_text);
  });

  it('calls a function with arguments that validate, and answers its function_call_output', async () => {
    const { openai } = openaiFor(server.baseUrl);
    const first = await openai.responses.create({ model: 'gpt-4o-mini', tools: [weather], input: 'What is the weather in Lisbon?' });
    const call = first.output.find((item) => item.type === 'function_call');
    expect(call).toMatchObject({ type: 'function_call', name: 'get_weather', status: 'completed' });
    if (call?.type !== 'function_call') throw new Error('no call');
    expect(call.call_id).toMatch(/^call_/);
    expect(ajv.validate(weather.parameters, JSON.parse(call.arguments))).toBe(true);

    const second = await openai.responses.create({
      model: 'gpt-4o-mini',
      tools: [weather],
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: '{"temperature": 23, "sky": "sunny"}' }],
    });
    expect(second.output_text).toMatch(/23/);
    expect(second.output_text).toMatch(/sunny/);

    const streamed = openai.responses.stream({ model: 'gpt-4o-mini', tools: [weather], tool_choice: 'required', input: 'What is the weather in Lisbon?', store: false });
    let args = '';
    streamed.on('response.function_call_arguments.delta', (event) => (args += event.delta));
    const final = await streamed.finalResponse();
    const streamedCall = final.output.find((item) => item.type === 'function_call');
    expect(streamedCall?.type === 'function_call' && streamedCall.arguments).toBe(args);
  });

  it('gives structured output valid against the schema: text.format on responses, response_format on chat', async () => {
    const { openai } = openaiFor(server.baseUrl);
    const parsed = await openai.responses.parse({
      model: 'gpt-4o-mini',
      input: 'Describe a city I could visit in spring.',
      text: { format: { type: 'json_schema', name: 'city', strict: true, schema: city } },
      store: false,
    });
    expect(ajv.validate(city, parsed.output_parsed)).toBe(true);
    expect(JSON.parse(parsed.output_text)).toEqual(parsed.output_parsed);

    const chat = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Describe a city I could visit in spring.' }],
      response_format: { type: 'json_schema', json_schema: { name: 'city', strict: true, schema: city } },
    });
    expect(ajv.validate(city, JSON.parse(chat.choices[0]!.message.content!))).toBe(true);
    const object = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], response_format: { type: 'json_object' } });
    expect(JSON.parse(object.choices[0]!.message.content!)).toEqual({ answer: expect.any(String) });
  });

  it('counts an input_image as the chat endpoint counts an image part, and reads developer messages', async () => {
    const { openai } = openaiFor(server.baseUrl);
    const pixel = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';
    const text = { type: 'input_text' as const, text: 'What is in this picture?' };
    const withImage = await openai.responses.create({ model: 'gpt-4o-mini', store: false, input: [{ role: 'user', content: [text, { type: 'input_image', image_url: pixel, detail: 'low' }] }] });
    const without = await openai.responses.create({ model: 'gpt-4o-mini', store: false, input: [{ role: 'user', content: [text] }] });
    expect(withImage.usage!.input_tokens - without.usage!.input_tokens).toBe(85);
    const developer = await openai.responses.create({ model: 'gpt-4o-mini', store: false, input: [{ role: 'developer', content: 'Be brief.' }, { role: 'user', content: 'Hi' }] });
    const instructions = await openai.responses.create({ model: 'gpt-4o-mini', store: false, instructions: 'Be brief.', input: 'Hi' });
    expect(developer.usage!.input_tokens).toBe(instructions.usage!.input_tokens);
    expect(developer.output_text).toBe(instructions.output_text);
  });

  it('ends incomplete at max_output_tokens', async () => {
    const { openai } = openaiFor(server.baseUrl);
    const response = await openai.responses.create({ model: 'gpt-4o-mini', input: 'Tell me a long story about the sea.', max_output_tokens: 5, store: false });
    expect(response).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, usage: { output_tokens: 5 } });
  });

  it('keeps a response for its key: retrieve, continue, delete; another key and store: false find nothing', async () => {
    const { openai } = openaiFor(server.baseUrl, 'sk-demo-starter');
    const first = await openai.responses.create({ model: 'gpt-4o-mini', input: 'My name is Ada. What is the capital of France?' });
    expect(await openai.responses.retrieve(first.id)).toEqual(first);

    const next = await openai.responses.create({ model: 'gpt-4o-mini', previous_response_id: first.id, input: 'And of Norway?' });
    expect(next.previous_response_id).toBe(first.id);
    expect(next.output_text).toMatch(/Norway/);
    // The conversation of the first response is part of the second's input.
    expect(next.usage!.input_tokens).toBeGreaterThan(first.usage!.input_tokens + first.usage!.output_tokens);

    const other = openaiFor(server.baseUrl, 'sk-demo-pro').openai;
    await expect(other.responses.retrieve(first.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(other.responses.delete(first.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(other.responses.create({ model: 'gpt-4o-mini', previous_response_id: first.id, input: 'Hi' })).rejects.toBeInstanceOf(OpenAI.BadRequestError);

    await openai.responses.delete(first.id);
    await expect(openai.responses.retrieve(first.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    const unstored = await openai.responses.create({ model: 'gpt-4o-mini', input: 'Hi', store: false });
    await expect(openai.responses.retrieve(unstored.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('refuses as the chat endpoint does: AuthenticationError, PermissionDeniedError, BadRequestError, NotFoundError', async () => {
    await expect(openaiFor(server.baseUrl, 'sk-nope').openai.responses.create({ model: 'gpt-4o-mini', input: 'Hi' })).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    const { openai } = openaiFor(server.baseUrl, 'sk-demo-starter');
    await expect(openai.responses.create({ model: 'gpt-4.1', input: 'Hi' })).rejects.toBeInstanceOf(OpenAI.PermissionDeniedError);
    await expect(openai.responses.create({ model: 'gpt-4o-mini', input: 'Hi', temperature: 3 })).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    await expect(openai.responses.create({ model: 'image-gen', input: 'Hi' })).rejects.toThrow(/does not support \/v1\/responses/);
    await expect(openai.responses.create({ model: 'gpt-9', input: 'Hi' })).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });
});
