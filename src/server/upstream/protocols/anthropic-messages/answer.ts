/** A `message` read back as the gateway's ChatAnswer. */
import type { ChatAnswer } from '../../../domain/chat.ts';
import { chatAnswer } from '../answer.ts';
import { malformed } from '../failures.ts';
import { isRecord, stringOf } from '../read.ts';
import { PROTOCOL } from './name.ts';
import { stopOf, usageOf } from './outcome.ts';

/**
 * The text blocks' text and the `tool_use` blocks (their `input` object as JSON text); other blocks
 * (thinking, server tools) are not part of a chat answer.
 *
 * @example
 * fromUpstream({ type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Hi' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 9, output_tokens: 1 } });
 */
export function fromUpstream(json: unknown): ChatAnswer {
  if (!isRecord(json) || !Array.isArray(json.content) || (json.type !== undefined && json.type !== 'message')) {
    throw malformed(PROTOCOL, 'an answer that is not a message (no content)');
  }
  let answerText = '';
  const calls: Array<{ id: string; name: string; arguments: string }> = [];
  for (const block of json.content) {
    if (!isRecord(block)) throw malformed(PROTOCOL, 'a content block that is not an object');
    if (block.type === 'text') answerText += stringOf(block.text) ?? '';
    else if (block.type === 'tool_use') {
      const [id, name] = [stringOf(block.id), stringOf(block.name)];
      if (id === undefined || name === undefined || !isRecord(block.input)) throw malformed(PROTOCOL, 'a tool_use block without its id, name or input');
      calls.push({ id, name, arguments: JSON.stringify(block.input) });
    }
  }
  return chatAnswer({ text: answerText, calls, ...stopOf(json.stop_reason, json.stop_sequence), ...usageOf(json) });
}
