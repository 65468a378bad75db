/**
 * The gateway's turns as Anthropic's `system` and `messages`. Anthropic keeps the system prompt apart, has
 * no tool role (a tool's result is a `tool_result` block in a user turn) and puts an assistant's calls in
 * its content as `tool_use` blocks.
 */
import { turnsOf, type Turn } from '../conversation.ts';
import type { Json } from '../read.ts';
import type { ChatRequest } from '../../../domain/chat.ts';
import { imageBlock } from './image-blocks.ts';

/** Anthropic refuses empty text blocks; an empty text part says nothing, so it is left out. */
function textBlocks(texts: readonly string[]): Json[] {
  return texts.filter((t) => t !== '').map((t) => ({ type: 'text', text: t }));
}

/** A call's arguments as the object `tool_use.input` must be; arguments cut short (not JSON) become `{}`. */
function inputOf(argumentsText: string): Json {
  try {
    const value: unknown = JSON.parse(argumentsText);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
  } catch {
    return {};
  }
}

/** The content blocks of a turn that goes in `messages`. */
function blocksOf(turn: Exclude<Turn, { role: 'system' }>): Json[] {
  switch (turn.role) {
    case 'user':
      return turn.parts.flatMap((part) => (part.type === 'image' ? [imageBlock(part.url)] : textBlocks([part.text])));
    case 'assistant':
      return [
        ...textBlocks([turn.text]),
        ...turn.toolCalls.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: inputOf(call.arguments) })),
      ];
    case 'tool': {
      const content = turn.texts.length === 1 ? turn.texts[0] : textBlocks(turn.texts);
      return [{ type: 'tool_result', tool_use_id: turn.toolCallId, content }];
    }
  }
}

/**
 * `system` and `messages` for a conversation. Every system message's text goes in the top-level `system`,
 * in order (the form every version of the API takes; the project's own Anthropic edge reads a system turn
 * the same way, as more of the system prompt). Consecutive tool results are one user turn, and a user
 * message that follows them joins that turn after them: Anthropic wants all the results of an assistant's
 * calls in the next user turn, before any text. An assistant turn with neither text nor calls says nothing
 * and is left out (Anthropic refuses empty content).
 *
 * @example
 * conversationOf([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }]);
 * // { system: [{ type: 'text', text: 'Be brief.' }], messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] }
 */
export function conversationOf(messages: ChatRequest['messages']): { system: Json[]; messages: Json[] } {
  const system: Json[] = [];
  const turns: Array<{ role: 'user' | 'assistant'; content: Json[] }> = [];
  for (const turn of turnsOf(messages)) {
    if (turn.role === 'system') {
      system.push(...textBlocks(turn.texts));
      continue;
    }
    const role = turn.role === 'assistant' ? 'assistant' : 'user';
    const blocks = blocksOf(turn);
    const last = turns.at(-1);
    const joinsResults = last?.role === 'user' && last.content.at(-1)?.type === 'tool_result';
    if (role === 'user' && joinsResults) last.content.push(...blocks);
    else if (blocks.length > 0 || role === 'user') turns.push({ role, content: blocks });
  }
  return { system, messages: turns };
}
