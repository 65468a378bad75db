// The chat examples of the contract also validate against OpenAI's own schemas (./openai/), so an
// OpenAI-compatible client accepts what the docs and the mock show.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { contract, describeErrors } from '../../src/contract/index.ts';

const reference = JSON.parse(readFileSync(new URL('./openai/chat-completion-schemas.json', import.meta.url), 'utf8'));
const openai = new Ajv2020({ strict: false, allErrors: true });
openai.addFormat('unixtime', true);
openai.addFormat('uri', true);
openai.addSchema({ $id: 'openai', components: reference.components });
const openaiResponse = openai.getSchema('openai#/components/schemas/CreateChatCompletionResponse')!;
const openaiChunk = openai.getSchema('openai#/components/schemas/CreateChatCompletionStreamResponse')!;
const openaiRequest = openai.getSchema('openai#/components/schemas/CreateChatCompletionRequest');

const example = (name: string) => contract.spec.components.examples[name]!.value;

describe('chat examples against OpenAI schemas', () => {
  it.each(['ChatCompletionResponseExample', 'ChatCompletionToolCallResponseExample'])('%s is an OpenAI chat completion', (name) => {
    expect(openaiResponse(example(name)), JSON.stringify(openaiResponse.errors)).toBe(true);
  });

  it('every event of the stream example is an OpenAI chunk and a contract chunk', () => {
    const events = (example('ChatCompletionStreamResponseExample') as string).trim().split('\n\n');
    const chunk = contract.schemaValidator('ChatCompletionChunk');
    for (const event of events.slice(0, -1)) {
      const data = JSON.parse(event.replace(/^data: /, ''));
      expect(openaiChunk(data), JSON.stringify(openaiChunk.errors)).toBe(true);
      expect(chunk(data), describeErrors(chunk.errors)).toBe(true);
    }
  });

  it.runIf(openaiRequest)('every chat request example is an OpenAI request', () => {
    for (const name of Object.keys(contract.spec.components.examples).filter((n) => /^ChatCompletion.*RequestExample$/.test(n))) {
      expect(openaiRequest!(example(name)), `${name}: ${JSON.stringify(openaiRequest!.errors)}`).toBe(true);
    }
  });
});
