/**
 * The gateway's chat answer, whoever made it, in Anthropic's Messages shapes: the `message` object, and the
 * event stream whose deltas add up to it (decision D27). Tool calls become `tool_use` blocks whose ids are
 * `toolu_…`.
 */
import type { components } from '../../../../generated/schema.d.ts';
import type { ChatAnswer } from '../../domain/chat.ts';
import type { AnswerWriter } from '../../http/answer-stream.ts';
import { anthropicType } from '../../http/error-formats.ts';
import { eventTemplate, frame, type SseEvent } from '../../http/sse.ts';

type Message = components['schemas']['AnthropicMessage'];
type ContentBlock = components['schemas']['AnthropicContentBlock'];
type StreamEvent = components['schemas']['AnthropicStreamEvent'];
type StopReason = components['schemas']['AnthropicStopReason'];

/** What the route adds to the answer. */
export interface MessageHead {
  id: string;
  model: string;
}

function stopReasonOf(answer: Pick<ChatAnswer, 'finishReason' | 'stopSequence'>): StopReason {
  if (answer.finishReason === 'tool_calls') return 'tool_use';
  if (answer.finishReason === 'length') return 'max_tokens';
  return answer.stopSequence === null ? 'end_turn' : 'stop_sequence';
}

/**
 * A call's id as Anthropic's `toolu_…`: the engine's (and OpenAI's) `call_<x>` as `toolu_<x>`; an Anthropic
 * upstream's as it is, so that the client's `tool_result` names what the upstream made.
 */
function toolUseId(id: string): string {
  if (id.startsWith('toolu_')) return id;
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
 * The events of a stream that are the same in every stream, or differ only in a few values, made once for the
 * process rather than by JSON.stringify in every stream, which costs every event, however small.
 */
const PING: SseEvent = { framed: frame({ event: 'ping', data: { type: 'ping' } satisfies StreamEvent }) };
const MESSAGE_STOP: SseEvent = { framed: frame({ event: 'message_stop', data: { type: 'message_stop' } satisfies StreamEvent }) };
const messageStart = eventTemplate(
  (id: string, model: string, input_tokens: number): StreamEvent => ({
    type: 'message_start',
    message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } },
  }),
  'message_start',
);

/** The events of a block that depend only on its index: a text block's start, the deltas of its text or of a call's JSON (templates), its stop. */
interface BlockEvents {
  textStart: SseEvent;
  textDelta: (text: string) => SseEvent;
  jsonDelta: (partial_json: string) => SseEvent;
  stop: SseEvent;
}
/** Those of the first blocks (an answer's text is its first block, its calls follow), kept once made: a bounded set. */
const firstBlocks: BlockEvents[] = [];
const KEPT_BLOCKS = 64;

function blockEvents(index: number): BlockEvents {
  const kept = firstBlocks[index];
  if (kept) return kept;
  const made: BlockEvents = {
    textStart: { framed: frame({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } } satisfies StreamEvent }) },
    textDelta: eventTemplate((text: string): StreamEvent => ({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } }), 'content_block_delta'),
    jsonDelta: eventTemplate((partial_json: string): StreamEvent => ({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } }), 'content_block_delta'),
    stop: { framed: frame({ event: 'content_block_stop', data: { type: 'content_block_stop', index } satisfies StreamEvent }) },
  };
  if (index < KEPT_BLOCKS) firstBlocks[index] = made;
  return made;
}

/**
 * The writer of Anthropic's event stream: `message_start` (with the input tokens, `inputTokens`, as the
 * request is counted before the answer), `ping`, each block as start, deltas (one per piece) and stop, then
 * `message_delta` and `message_stop`. When the answer's own count of the input differs from `inputTokens`
 * (an upstream that reports it only at the end), `message_delta` carries it too, as Anthropic's cumulative
 * usage does. A failure after the stream has begun is an `error` event.
 *
 * @example
 *   const writer = messageWriter({ id: 'msg_…', model: 'claude-haiku-4-5' }, 12);
 */
export function messageWriter(head: MessageHead, inputTokens: number): AnswerWriter {
  const event = (data: StreamEvent): SseEvent => ({ event: data.type, data });
  let started = false;
  /** The open block: its index, which call it is when it is a tool_use block, and its delta event (blockEvents). */
  let open: { index: number; call?: number; delta: (piece: string) => SseEvent } | undefined;
  let blocks = 0;
  /** The block of each call, for argument pieces that come after another block began. */
  const callBlocks = new Map<number, number>();

  function close(out: SseEvent[]): void {
    if (open) out.push(blockEvents(open.index).stop);
    open = undefined;
  }

  return {
    write(step) {
      // The common step, a piece of the open text block: its one event in an array of one (see chunks.ts).
      if (step.type === 'text' && open !== undefined && open.call === undefined) return [open.delta(step.text)];
      const out: SseEvent[] = [];
      if (!started) {
        started = true;
        out.push(messageStart(head.id, head.model, inputTokens), PING);
      }
      switch (step.type) {
        case 'text':
          if (open?.call !== undefined || !open) {
            close(out);
            const block = blockEvents(blocks);
            open = { index: blocks++, delta: block.textDelta };
            out.push(block.textStart);
          }
          out.push(open.delta(step.text));
          break;
        case 'tool-call': {
          close(out);
          const index = blocks++;
          open = {
            index,
            call: step.index,
            delta: blockEvents(index).jsonDelta,
          };
          callBlocks.set(step.index, index);
          out.push(event({ type: 'content_block_start', index: open.index, content_block: { type: 'tool_use', id: toolUseId(step.id), name: step.name, input: {} } }));
          break;
        }
        case 'tool-arguments': {
          const index = callBlocks.get(step.index);
          if (open?.call === step.index) out.push(open.delta(step.text));
          else if (index !== undefined) out.push(event({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: step.text } }));
          break;
        }
        case 'end': {
          close(out);
          const answer = { finishReason: step.finishReason, stopSequence: step.stopSequence };
          const usage = { output_tokens: step.completionTokens, ...(step.promptTokens !== inputTokens && { input_tokens: step.promptTokens }) };
          out.push(event({ type: 'message_delta', delta: { stop_reason: stopReasonOf(answer), stop_sequence: step.stopSequence }, usage }));
          out.push(MESSAGE_STOP);
          break;
        }
      }
      return out;
    },
    fail: (status, message) => [event({ type: 'error', error: { type: anthropicType(status), message } } as StreamEvent)],
  };
}
