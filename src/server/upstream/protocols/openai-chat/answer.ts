/** A chat completion (`object: chat.completion`) read back as the gateway's ChatAnswer. */
import type { ChatAnswer } from '../../../domain/chat.ts';
import { chatAnswer } from '../answer.ts';
import { malformed } from '../failures.ts';
import { isRecord, stringOf, tokenCount, type Json } from '../read.ts';
import { finishOf } from './finish.ts';
import { PROTOCOL } from './name.ts';

function callsOf(message: Json): Array<{ id: string; name: string; arguments: string }> {
  const calls = message.tool_calls;
  if (calls === undefined || calls === null) return [];
  if (!Array.isArray(calls)) throw malformed(PROTOCOL, 'tool_calls that are not a list');
  return calls.map((call: unknown) => {
    const fn = isRecord(call) && isRecord(call.function) ? call.function : {};
    const [id, name, args] = [isRecord(call) ? stringOf(call.id) : undefined, stringOf(fn.name), stringOf(fn.arguments)];
    if (id === undefined || name === undefined || args === undefined) throw malformed(PROTOCOL, 'a tool call without its id, function name or arguments');
    return { id, name, arguments: args };
  });
}

/**
 * The first choice's message, finish reason and the usage. A refusal (`refusal` instead of `content`) is
 * the answer's text: it is what the model said, and the client protocols have no field of their own for it.
 *
 * @example
 * fromUpstream({ object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' }], usage: { prompt_tokens: 9, completion_tokens: 1 } });
 */
export function fromUpstream(json: unknown): ChatAnswer {
  if (!isRecord(json) || !Array.isArray(json.choices)) throw malformed(PROTOCOL, 'an answer that is not a chat completion (no choices)');
  // The gateway never asks for n > 1: the answer is choice 0.
  const choice: unknown = json.choices.find((c: unknown) => isRecord(c) && (c.index ?? 0) === 0);
  if (!isRecord(choice) || !isRecord(choice.message)) throw malformed(PROTOCOL, 'a chat completion without the message of choice 0');
  const message = choice.message;
  const calls = callsOf(message);
  const usage = isRecord(json.usage) ? json.usage : {};
  return chatAnswer({
    text: stringOf(message.content) ?? stringOf(message.refusal) ?? '',
    calls,
    finishReason: finishOf(choice.finish_reason, calls.length > 0),
    // OpenAI does not say which stop sequence ended the text.
    stopSequence: null,
    promptTokens: tokenCount(usage.prompt_tokens),
    completionTokens: tokenCount(usage.completion_tokens),
  });
}
