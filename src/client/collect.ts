/**
 * Gathers a streamed chat completion into the object a non-streamed call returns.
 */
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionMessage, ToolCall, Usage } from './types.ts';

/**
 * A non-streamed chat completion. `usage` is there when the stream carried it (`stream_options:
 * { include_usage: true }`); a stream without it cannot tell.
 */
export type CollectedChatCompletion = Omit<ChatCompletion, 'usage'> & { usage?: Usage };

type Choice = ChatCompletion['choices'][number];

/**
 * Reads the whole stream and joins its deltas: `content` and each tool call's `arguments` are
 * concatenated, `finish_reason` and `usage` are taken from the chunks that carry them.
 *
 * @example
 *   const completion = await collectChatCompletion(streamChatCompletion(client, {
 *     model: 'gpt-4o-mini',
 *     messages: [{ role: 'user', content: 'Hello!' }],
 *     stream_options: { include_usage: true },
 *   }));
 *   console.log(completion.choices[0]?.message.content, completion.usage?.total_tokens);
 */
export async function collectChatCompletion(stream: AsyncIterable<ChatCompletionChunk>): Promise<CollectedChatCompletion> {
  let head: ChatCompletionChunk | undefined;
  let usage: Usage | undefined;
  const choices = new Map<number, { message: ChatCompletionMessage; finish: Choice['finish_reason'] | null; calls: ToolCall[] }>();

  for await (const chunk of stream) {
    head ??= chunk;
    if (chunk.usage) usage = chunk.usage;
    for (const { index, delta, finish_reason } of chunk.choices) {
      let choice = choices.get(index);
      if (!choice) {
        choice = { message: { role: 'assistant', content: null, refusal: null }, finish: null, calls: [] };
        choices.set(index, choice);
      }
      if (typeof delta.content === 'string') choice.message.content = (choice.message.content ?? '') + delta.content;
      if (typeof delta.refusal === 'string') choice.message.refusal = (choice.message.refusal ?? '') + delta.refusal;
      for (const piece of delta.tool_calls ?? []) {
        const call = (choice.calls[piece.index] ??= { id: '', type: 'function', function: { name: '', arguments: '' } });
        if (piece.id) call.id = piece.id;
        if (piece.function?.name) call.function.name += piece.function.name;
        if (piece.function?.arguments) call.function.arguments += piece.function.arguments;
      }
      if (finish_reason) choice.finish = finish_reason;
    }
  }

  if (!head) throw new Error('The stream held no chunk.');
  const completion: CollectedChatCompletion = {
    id: head.id,
    object: 'chat.completion',
    created: head.created,
    model: head.model,
    choices: [...choices.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, { message, finish, calls }]) => {
        if (!finish) throw new Error(`The stream ended without a finish_reason for choice ${index}.`);
        if (calls.length > 0) message.tool_calls = calls.filter(Boolean);
        return { index, message, finish_reason: finish, logprobs: null };
      }),
    ...(head.system_fingerprint !== undefined && { system_fingerprint: head.system_fingerprint }),
  };
  if (usage) completion.usage = usage;
  return completion;
}
