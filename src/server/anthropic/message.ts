/**
 * The text engine's answer in Anthropic's Messages shapes: the `message` object, and the event stream whose
 * deltas add up to it (decision D27). Tool calls become `tool_use` blocks whose ids are `toolu_…`.
 */
import type { components } from '../../../generated/schema.d.ts';
import type { ChatAnswer } from '../domain/engine/text/index.ts';
import { eventTemplate, type SseEvent } from '../http/sse.ts';

type Message = components['schemas']['AnthropicMessage'];
type ContentBlock = components['schemas']['AnthropicContentBlock'];
type StreamEvent = components['schemas']['AnthropicStreamEvent'];
type StopReason = components['schemas']['AnthropicStopReason'];

/** What the route adds to the engine's answer. */
export interface MessageHead {
  id: string;
  model: string;
}

function stopReasonOf(answer: ChatAnswer): StopReason {
  if (answer.finishReason === 'tool_calls') return 'tool_use';
  if (answer.finishReason === 'length') return 'max_tokens';
  return answer.stopSequence === null ? 'end_turn' : 'stop_sequence';
}

/** The engine's `call_<hex>` id as Anthropic's `toolu_<hex>`. */
function toolUseId(id: string): string {
  return `toolu_${id.replace(/^call_/, '')}`;
}

/** A call's arguments as an object; a call cut short by max_tokens has only part of its JSON: `{}`. */
function inputOf(argumentsText: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(argumentsText);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function blocksOf(answer: ChatAnswer): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  if (answer.content) blocks.push({ type: 'text', text: answer.content });
  for (const call of answer.toolCalls) blocks.push({ type: 'tool_use', id: toolUseId(call.id), name: call.name, input: inputOf(call.arguments) });
  return blocks;
}

function usageOf(answer: ChatAnswer, outputTokens: number): Message['usage'] {
  return { input_tokens: answer.promptTokens, output_tokens: outputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
}

/**
 * The answer as a `message`.
 *
 * @example
 * toMessage(answer, { id: 'msg_…', model: 'claude-haiku-4-5' }); // { type: 'message', content: [{ type: 'text', … }], … }
 */
export function toMessage(answer: ChatAnswer, head: MessageHead): Message {
  return {
    id: head.id,
    type: 'message',
    role: 'assistant',
    model: head.model,
    content: blocksOf(answer),
    stop_reason: stopReasonOf(answer),
    stop_sequence: answer.stopSequence,
    usage: usageOf(answer, answer.completionTokens),
  };
}

/**
 * The answer as Anthropic's event stream: `message_start`, `ping`, each block as start, deltas (one per
 * token) and stop, then `message_delta` and `message_stop`.
 */
export function* messageEvents(answer: ChatAnswer, head: MessageHead): Generator<SseEvent> {
  const event = (data: StreamEvent): SseEvent => ({ event: data.type, data });
  const start: Message = { ...toMessage(answer, head), content: [], stop_reason: null, stop_sequence: null, usage: usageOf(answer, 0) };
  yield event({ type: 'message_start', message: start });
  yield event({ type: 'ping' });
  let index = 0;
  if (answer.content) {
    yield event({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    const delta = eventTemplate((text: string): StreamEvent => ({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } }), 'content_block_delta');
    for (const text of answer.contentPieces) yield delta(text);
    yield event({ type: 'content_block_stop', index });
    index++;
  }
  for (const call of answer.toolCalls) {
    yield event({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: toolUseId(call.id), name: call.name, input: {} } });
    const delta = eventTemplate((partial_json: string): StreamEvent => ({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } }), 'content_block_delta');
    for (const partial_json of call.argumentPieces) yield delta(partial_json);
    yield event({ type: 'content_block_stop', index });
    index++;
  }
  yield event({ type: 'message_delta', delta: { stop_reason: stopReasonOf(answer), stop_sequence: answer.stopSequence }, usage: { output_tokens: answer.completionTokens } });
  yield event({ type: 'message_stop' });
}
