// The contract's validators mark tagged unions with ajv's `discriminator` (src/contract/discriminators.ts).
// That must change how fast and how clearly they judge a value, never what they decide.
import { describe, expect, it } from 'vitest';
import { withDiscriminators } from '../../src/contract/discriminators.ts';
import { newAjv } from '../../src/contract/ajv.ts';
import { contract, describeErrors } from '../../src/contract/index.ts';

/** ajv on the spec as written, without the discriminators: the verdicts to match. */
function plainValidator(pointer: string) {
  const ajv = newAjv();
  ajv.addSchema({ ...contract.spec, $id: 'plain' });
  return ajv.compile({ $ref: `plain#${pointer}` });
}

const parts: unknown[] = [
  { type: 'text', text: 'What is this?' },
  { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
  { type: 'image_url', image_url: { url: 'https://example.com/cat.png', detail: 'sideways' } },
  { type: 'text' },
  { type: 'image_url', text: 'no image' },
  { type: 'video', text: 'x' },
  { text: 'no type' },
  { type: 5, text: 'x' },
  'text',
  null,
];

const contents: unknown[] = ['Hello', '', null, 5, [], ...parts.map((part) => [part]), [parts[0], parts[1]], [parts[0], parts[3]]];

function messages(): unknown[] {
  const out: unknown[] = ['hi', 5, null, [], {}, { content: 'no role' }];
  const roles = ['system', 'user', 'assistant', 'tool', 'robot', 5, null];
  for (const role of roles) {
    out.push({ role });
    for (const content of contents) {
      out.push({ role, content });
      out.push({ role, content, name: 'ada' });
      out.push({ role, content, tool_call_id: 'call_1' });
    }
    out.push({ role, content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }] });
    out.push({ role, tool_calls: [] });
    out.push({ role, content: 'x', refusal: null });
  }
  return out;
}

describe('tagged unions for ajv', () => {
  it('are found where the branches are objects told apart by a required constant, and nowhere else', () => {
    expect(withDiscriminators(contract.spec).unions).toEqual([
      { pointer: '/components/schemas/UserContent/oneOf/1/items', tag: 'type', values: ['text', 'image_url'] },
      { pointer: '/components/schemas/ChatMessage', tag: 'role', values: ['system', 'user', 'assistant', 'tool'] },
      { pointer: '/components/schemas/ChatResponseFormat', tag: 'type', values: ['text', 'json_object', 'json_schema'] },
      { pointer: '/components/schemas/ResponseContentPart', tag: 'type', values: ['input_text', 'input_image', 'output_text', 'refusal', 'input_file'] },
      { pointer: '/components/schemas/ResponseTextFormat', tag: 'type', values: ['text', 'json_schema', 'json_object'] },
      { pointer: '/components/schemas/ResponseOutputItem', tag: 'type', values: ['message', 'function_call', 'reasoning'] },
      {
        pointer: '/components/schemas/ResponseStreamEvent',
        tag: 'type',
        values: [
          'response.created', 'response.in_progress', 'response.completed', 'response.incomplete', 'response.output_item.added',
          'response.output_item.done', 'response.content_part.added', 'response.content_part.done', 'response.output_text.delta',
          'response.output_text.done', 'response.function_call_arguments.delta', 'response.function_call_arguments.done',
          'response.reasoning_summary_part.added', 'response.reasoning_summary_part.done', 'response.reasoning_summary_text.delta',
          'response.reasoning_summary_text.done', 'error',
        ],
      },
      { pointer: '/components/schemas/AnthropicToolResultBlockParam/properties/content/oneOf/1/items', tag: 'type', values: ['text', 'image'] },
      {
        pointer: '/components/schemas/AnthropicContentBlockParam',
        tag: 'type',
        values: ['text', 'image', 'tool_use', 'tool_result', 'document', 'thinking', 'redacted_thinking'],
      },
      { pointer: '/components/schemas/AnthropicThinkingConfig', tag: 'type', values: ['enabled', 'adaptive', 'between_tools', 'disabled'] },
      { pointer: '/components/schemas/AnthropicContentBlock', tag: 'type', values: ['text', 'tool_use', 'thinking', 'redacted_thinking'] },
      {
        pointer: '/components/schemas/AnthropicStreamEvent/oneOf/3/properties/delta',
        tag: 'type',
        values: ['text_delta', 'input_json_delta', 'thinking_delta', 'signature_delta'],
      },
      {
        pointer: '/components/schemas/AnthropicStreamEvent',
        tag: 'type',
        values: ['message_start', 'ping', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop', 'error'],
      },
    ]);
  });

  it('leave the spec they are made from unchanged', () => {
    const before = JSON.stringify(contract.spec);
    withDiscriminators(contract.spec);
    expect(JSON.stringify(contract.spec)).toBe(before);
    expect(JSON.stringify(contract.spec)).not.toContain('"discriminator"');
  });

  it('give the chat request validator the same verdict as the spec as written, on every message', () => {
    const { pointer, validate } = contract.requestBodyValidator('createChatCompletion');
    const plain = plainValidator(pointer);
    const all = messages();
    expect(all.length).toBeGreaterThan(350);
    let valid = 0;
    for (const message of all) {
      for (const body of [{ model: 'gpt-4o-mini', messages: [message] }, { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }, message] }]) {
        const expected = plain(body);
        expect(validate(body), JSON.stringify(body)).toBe(expected);
        if (expected) valid++;
      }
    }
    expect(valid).toBeGreaterThan(50); // both verdicts are well represented
  });

  it('name the problem of the branch the tag chooses, and the allowed tags when it names none', () => {
    const { validate } = contract.requestBodyValidator('createChatCompletion');
    const message = (value: unknown) => {
      expect(validate({ model: 'gpt-4o-mini', messages: [value] })).toBe(false);
      return describeErrors(validate.errors);
    };
    expect(message({ role: 'user' })).toBe("/messages/0 must have required property 'content'");
    expect(message({ role: 'tool', content: 'x' })).toBe("/messages/0 must have required property 'tool_call_id'");
    expect(message({ role: 'robot', content: 'x' })).toBe('/messages/0/role must be one of "system", "user", "assistant", "tool"');
    expect(message({ content: 'x' })).toBe("/messages/0 must have required property 'role'");
    expect(message('hi')).toBe('/messages/0 must be object');
    // The deepest problem comes first; the text-or-parts `oneOf` of `content` adds its own.
    expect(message({ role: 'user', content: [{ type: 'video' }] })).toMatch(/^\/messages\/0\/content\/0\/type must be one of "text", "image_url";/);
  });
});
