/** A `response` object read back as the gateway's ChatAnswer. */
import type { ChatAnswer } from '../../../domain/chat.ts';
import { chatAnswer } from '../answer.ts';
import { malformed, upstreamFailed } from '../failures.ts';
import { isRecord, stringOf } from '../read.ts';
import { failureOf, finishOf, usageOf } from './outcome.ts';
import { PROTOCOL } from './name.ts';

/**
 * The output's message text (its `output_text` parts, and a `refusal` part's words: what the model said)
 * and its `function_call` items; other items (reasoning, built-in tools) are not part of a chat answer. A
 * failed response is the upstream's own report of failure: the same error as a `response.failed` event.
 *
 * @example
 * fromUpstream({ object: 'response', status: 'completed', output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hi' }] }], usage: { input_tokens: 9, output_tokens: 1 } });
 */
export function fromUpstream(json: unknown): ChatAnswer {
  if (!isRecord(json) || !Array.isArray(json.output)) throw malformed(PROTOCOL, 'an answer that is not a response (no output)');
  if (json.status === 'failed') throw upstreamFailed(PROTOCOL, failureOf(json));
  let answerText = '';
  const calls: Array<{ id: string; name: string; arguments: string }> = [];
  for (const item of json.output) {
    if (!isRecord(item)) throw malformed(PROTOCOL, 'an output item that is not an object');
    if (item.type === 'message' && Array.isArray(item.content)) {
      for (const part of item.content) if (isRecord(part)) answerText += stringOf(part.text) ?? stringOf(part.refusal) ?? '';
    } else if (item.type === 'function_call') {
      const [id, name, args] = [stringOf(item.call_id), stringOf(item.name), stringOf(item.arguments)];
      if (id === undefined || name === undefined || args === undefined) throw malformed(PROTOCOL, 'a function_call item without its call_id, name or arguments');
      calls.push({ id, name, arguments: args });
    }
  }
  return chatAnswer({ text: answerText, calls, finishReason: finishOf(json, calls.length > 0), stopSequence: null, ...usageOf(json) });
}
