/**
 * The rules of a streamed Anthropic Messages answer (`messages-stream`), checked on one exchange: content type,
 * `event:` + `data:` framing with the event's name equal to its `type`, every event valid against the event
 * schema, and the grammar: `message_start` first; `ping` anywhere; each block opened by
 * `content_block_start` at the next index, given deltas of its kind only (`text_delta` for text,
 * `input_json_delta` for `tool_use`) and closed by `content_block_stop`; one `message_delta` after the last
 * block; `message_stop` last. And how it stopped (`stop-reasons`): `tool_use` when it ends in tool calls,
 * `stop_sequence` naming the sequence. Returns the message the stream adds up to, for comparison with a JSON
 * answer.
 */
import type { Tester } from '../check.ts';
import type { Exchange } from '../http.ts';
import { readNamedEvents } from './named-events.ts';

const RULE = 'messages-stream';
const GRAMMAR = `${RULE}: the event grammar`;

interface StreamEvent {
  type?: unknown;
  index?: unknown;
  message?: { usage?: { input_tokens?: unknown } };
  content_block?: { type?: unknown; id?: unknown; name?: unknown };
  delta?: { type?: unknown; text?: unknown; partial_json?: unknown; stop_reason?: unknown; stop_sequence?: unknown };
  usage?: { input_tokens?: unknown; output_tokens?: unknown };
}

/** What a stream adds up to. */
export interface StreamedMessage {
  /** Text blocks as their text; tool_use blocks with their input parsed from the `partial_json` pieces (undefined when they do not parse). */
  blocks: Array<{ type: 'text'; text: string } | { type: 'tool_use'; id: unknown; name: unknown; json: string; input: unknown }>;
  stopReason: unknown;
  stopSequence: unknown;
  /**
   * The input tokens the stream ends with: `message_delta`'s `input_tokens` when it carries them (Anthropic
   * documents the usage there as cumulative, and a gateway whose upstream reports its count only at the end
   * says it there, decision D31), else `message_start`'s.
   */
  inputTokens: unknown;
  outputTokens: unknown;
}

export function analyseMessageStream(t: Tester, ex: Exchange, eventPointer: string): StreamedMessage | undefined {
  const events = readNamedEvents<StreamEvent>(t, ex, eventPointer, RULE);
  if (!events) return undefined;
  const flow = events.filter((e) => e.type !== 'ping');
  if (!t.expect(flow.length > 0, 'the stream has no events', GRAMMAR, ex)) return undefined;
  if (flow.some((e) => e.type === 'error')) {
    t.fail('the stream carries an error event', GRAMMAR, ex);
    return undefined;
  }
  t.expect(flow[0]!.type === 'message_start', `the first event is ${JSON.stringify(flow[0]!.type)}, not message_start`, GRAMMAR, ex);
  t.expect(flow.at(-1)!.type === 'message_stop', `the last event is ${JSON.stringify(flow.at(-1)!.type)}, not message_stop`, GRAMMAR, ex);

  const message: StreamedMessage = { blocks: [], stopReason: undefined, stopSequence: undefined, inputTokens: flow[0]!.message?.usage?.input_tokens, outputTokens: undefined };
  let open: number | undefined;
  let deltas = 0;
  const wrong = (what: string) => t.fail(what, GRAMMAR, ex);
  for (const [i, e] of flow.entries()) {
    if (i === 0 || e.type === 'message_stop') continue;
    if (message.stopReason !== undefined && e.type !== 'message_stop') {
      wrong(`event ${e.type} after message_delta`);
      break;
    }
    switch (e.type) {
      case 'content_block_start': {
        if (open !== undefined) wrong(`block ${e.index} starts while block ${open} is open`);
        if (e.index !== message.blocks.length) wrong(`block index ${e.index} where ${message.blocks.length} comes next`);
        open = message.blocks.length;
        const block = e.content_block;
        message.blocks.push(block?.type === 'tool_use' ? { type: 'tool_use', id: block.id, name: block.name, json: '', input: undefined } : { type: 'text', text: '' });
        break;
      }
      case 'content_block_delta': {
        const block = open === undefined ? undefined : message.blocks[open];
        if (!block || e.index !== open) {
          wrong(`a delta for block ${e.index} while ${open === undefined ? 'no block' : `block ${open}`} is open`);
          break;
        }
        deltas++;
        if (block.type === 'text' && e.delta?.type === 'text_delta') block.text += String(e.delta.text);
        else if (block.type === 'tool_use' && e.delta?.type === 'input_json_delta') block.json += String(e.delta.partial_json);
        else wrong(`a ${e.delta?.type} in a ${block.type} block`);
        break;
      }
      case 'content_block_stop':
        if (e.index !== open) wrong(`content_block_stop for block ${e.index} while ${open === undefined ? 'no block' : `block ${open}`} is open`);
        open = undefined;
        break;
      case 'message_delta':
        if (open !== undefined) wrong(`message_delta while block ${open} is open`);
        message.stopReason = e.delta?.stop_reason;
        message.stopSequence = e.delta?.stop_sequence;
        message.outputTokens = e.usage?.output_tokens;
        if (e.usage?.input_tokens !== undefined) message.inputTokens = e.usage.input_tokens;
        break;
      default:
        wrong(`event ${JSON.stringify(e.type)} in the middle of the stream`);
    }
  }
  t.expect(message.stopReason !== undefined, 'the stream has no message_delta with the stop reason', GRAMMAR, ex);
  t.expect(message.blocks.length === 0 || deltas > 0, 'the blocks of the stream have no deltas', GRAMMAR, ex);
  for (const block of message.blocks) {
    if (block.type !== 'tool_use') continue;
    try {
      block.input = JSON.parse(block.json);
    } catch {
      if (message.stopReason !== 'max_tokens') wrong(`the partial_json pieces of tool_use ${JSON.stringify(block.name)} do not add up to JSON: ${JSON.stringify(block.json.slice(0, 120))}`);
    }
  }
  checkStopReason(t, message.blocks, message.stopReason, message.stopSequence, ex);
  return message;
}

/**
 * How a message stopped, where the description states it (`stop-reasons`): `tool_use` exactly when it ends
 * in tool calls (unless `max_tokens` cut it), and `stop_sequence` naming the sequence, which is null for any
 * other reason.
 */
export function checkStopReason(t: Tester, blocks: ReadonlyArray<{ type?: unknown }>, stopReason: unknown, stopSequence: unknown, ex: Exchange): void {
  if (!t.ctx.protocol.rule('stop-reasons')) return;
  const rule = 'stop-reasons';
  const calls = blocks.some((b) => b.type === 'tool_use');
  if (stopReason !== 'max_tokens') {
    t.expect(calls === (stopReason === 'tool_use'), calls ? `the message ends in tool_use blocks but stops with ${JSON.stringify(stopReason)}, not "tool_use"` : 'the message stops with "tool_use" without a tool_use block', rule, ex);
  }
  if (stopReason === 'stop_sequence') t.expect(typeof stopSequence === 'string' && stopSequence.length > 0, `stop_reason "stop_sequence" names the sequence ${JSON.stringify(stopSequence)}`, rule, ex);
  else t.expect(stopSequence === null || stopSequence === undefined, `stop_sequence is ${JSON.stringify(stopSequence)} with stop_reason ${JSON.stringify(stopReason)}`, rule, ex);
}
