/**
 * The same conversation, asked through each protocol the gateway speaks, gets the same answer from the
 * built-in engine (decisions D27 and D29: one engine under the three): the chat endpoint, Anthropic's
 * Messages and the Responses API, whole and streamed, each through its official SDK and in the forms those
 * clients send the same texts in (a string, or one text part). A frontend that moves from one protocol to
 * another sees the same text, and the benchmark compares each protocol with a chat completion of the very
 * same answer.
 */
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { anthropicFor } from '../anthropic-sdk/sdk.ts';
import { useServer } from '../helpers/server.ts';
import { openaiFor } from '../openai-sdk/sdk.ts';

const server = useServer();

const model = 'gpt-4o-mini';
const system = 'You are a concise assistant.';
const question = 'Why do tides rise twice a day?';

interface Answer {
  text: string;
  inputTokens: number;
  outputTokens: number;
}

async function viaChat(stream: boolean): Promise<Answer> {
  const { openai } = openaiFor(server.baseUrl);
  const messages = [
    { role: 'system' as const, content: system },
    { role: 'user' as const, content: question },
  ];
  if (!stream) {
    const completion = await openai.chat.completions.create({ model, messages });
    return { text: completion.choices[0]!.message.content!, inputTokens: completion.usage!.prompt_tokens, outputTokens: completion.usage!.completion_tokens };
  }
  let text = '';
  let usage: OpenAI.CompletionUsage | undefined;
  for await (const chunk of await openai.chat.completions.create({ model, messages, stream: true, stream_options: { include_usage: true } })) {
    text += chunk.choices[0]?.delta.content ?? '';
    usage = chunk.usage ?? usage;
  }
  return { text, inputTokens: usage!.prompt_tokens, outputTokens: usage!.completion_tokens };
}

async function viaMessages(stream: boolean, asBlocks: boolean): Promise<Answer> {
  const { anthropic } = anthropicFor(server.baseUrl, { apiKey: 'sk-demo-starter' });
  const request = {
    model,
    max_tokens: 1024,
    system: asBlocks ? [{ type: 'text' as const, text: system }] : system,
    messages: [{ role: 'user' as const, content: asBlocks ? [{ type: 'text' as const, text: question }] : question }],
  };
  const message = stream ? await anthropic.messages.stream(request).finalMessage() : await anthropic.messages.create(request);
  const text = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
  return { text, inputTokens: message.usage.input_tokens, outputTokens: message.usage.output_tokens };
}

async function viaResponses(stream: boolean, asItems: boolean): Promise<Answer> {
  const { openai } = openaiFor(server.baseUrl);
  const input: OpenAI.Responses.ResponseInput | string = asItems ? [{ role: 'user', content: [{ type: 'input_text', text: question }] }] : question;
  const request = { model, instructions: system, input, store: false };
  let response: OpenAI.Responses.Response | undefined;
  if (!stream) response = await openai.responses.create(request);
  else for await (const event of await openai.responses.create({ ...request, stream: true })) if (event.type === 'response.completed') response = event.response;
  // The text of the output's messages (the SDK adds `output_text` to what `create` returns, not to an event's response).
  const text = response!.output.flatMap((item) => (item.type === 'message' ? item.content.map((part) => (part.type === 'output_text' ? part.text : '')) : [])).join('');
  return { text, inputTokens: response!.usage!.input_tokens, outputTokens: response!.usage!.output_tokens };
}

describe('the same conversation in every protocol', () => {
  it('gets the same text and the same token counts, whole and streamed, whatever form the texts come in', async () => {
    const chat = await viaChat(false);
    expect(chat.text.length).toBeGreaterThan(50);
    const answers: Record<string, Answer> = {
      'chat, streamed': await viaChat(true),
      'Messages, strings': await viaMessages(false, false),
      'Messages, text blocks': await viaMessages(false, true),
      'Messages, streamed': await viaMessages(true, true),
      'Responses, a string': await viaResponses(false, false),
      'Responses, input items': await viaResponses(false, true),
      'Responses, streamed': await viaResponses(true, true),
    };
    for (const [how, answer] of Object.entries(answers)) expect({ how, ...answer }).toEqual({ how, ...chat });
  });

  it('still answers another conversation otherwise', async () => {
    const { anthropic } = anthropicFor(server.baseUrl, { apiKey: 'sk-demo-starter' });
    const other = await anthropic.messages.create({ model, max_tokens: 1024, messages: [{ role: 'user', content: question }] });
    // Without the system prompt the conversation differs, and so does the answer's seed.
    expect(other.content[0]).toMatchObject({ type: 'text' });
    expect((other.content[0] as { text: string }).text).not.toBe((await viaChat(false)).text);
  });
});
