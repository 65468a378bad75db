/**
 * The gateway's chat answer, whoever made it, in the Responses API's shapes (decision D29): the `response`
 * object, and the event stream whose deltas add up to it, every event with a rising `sequence_number`.
 */
import type { components } from '../../../../generated/schema.d.ts';
import type { AnswerEvent } from '../../domain/answer-events.ts';
import type { ChatAnswer } from '../../domain/chat.ts';
import type { AnswerWriter } from '../../http/answer-stream.ts';
import { eventTemplate, streamTemplate, type SseEvent } from '../../http/sse.ts';

type ResponseRequest = components['schemas']['ResponseRequest'];
type Response = components['schemas']['Response'];
type OutputItem = components['schemas']['ResponseOutputItem'];
type StreamEvent = components['schemas']['ResponseStreamEvent'];

/** What the route adds: the response's id and time, the model, and a maker of item ids. */
export interface ResponseHead {
  id: string;
  createdAt: number;
  model: string;
  newId: (prefix: string) => string;
}

function outputOf(answer: ChatAnswer, head: ResponseHead): OutputItem[] {
  const cut = answer.finishReason === 'length';
  const items: OutputItem[] = [];
  if (answer.content !== null && (answer.content !== '' || answer.toolCalls.length === 0)) {
    items.push({
      type: 'message',
      id: head.newId('msg_'),
      status: cut ? 'incomplete' : 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: answer.content, annotations: [] }],
    });
  }
  for (const call of answer.toolCalls) {
    items.push({ type: 'function_call', id: head.newId('fc_'), call_id: call.id, name: call.name, arguments: call.arguments, status: 'completed' });
  }
  return items;
}

/**
 * The answer as a `response`, echoing the request's settings as OpenAI does.
 *
 * @example
 * toResponse(answer, body, { id: 'resp_…', createdAt, model: 'gpt-4o-mini', newId });
 */
export function toResponse(answer: ChatAnswer, body: ResponseRequest, head: ResponseHead): Response {
  return responseOf(body, head, outputOf(answer, head), answer);
}

/** The `response` of these output items and this usage; cut short when the answer's finish reason is `length`. */
function responseOf(body: ResponseRequest, head: ResponseHead, output: OutputItem[], end: Pick<ChatAnswer, 'finishReason' | 'promptTokens' | 'completionTokens'>): Response {
  const cut = end.finishReason === 'length';
  return {
    id: head.id,
    object: 'response',
    created_at: head.createdAt,
    status: cut ? 'incomplete' : 'completed',
    model: head.model,
    output,
    usage: {
      input_tokens: end.promptTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: end.completionTokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: end.promptTokens + end.completionTokens,
    },
    error: null,
    incomplete_details: cut ? { reason: 'max_output_tokens' } : null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    temperature: body.temperature ?? 1,
    top_p: body.top_p ?? 1,
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    store: body.store ?? true,
    tool_choice: body.tool_choice ?? 'auto',
    tools: body.tools ?? [],
    text: { format: body.text?.format ?? { type: 'text' } },
    metadata: (body.metadata as Record<string, string> | null | undefined) ?? {},
  };
}

type EventBody<T> = T extends unknown ? Omit<T, 'sequence_number'> : never;
type End = Extract<AnswerEvent, { type: 'end' }>;
type MessageItem = Extract<OutputItem, { type: 'message' }>;
type CallItem = Extract<OutputItem, { type: 'function_call' }>;

/**
 * The events of a message item, serialised once for the process (eventTemplate, streamTemplate) with the
 * item's values put in: three of them carry the message's whole text, which JSON.stringify would write anew
 * each time.
 */
const messageEvents = {
  /** The deltas, one per token (streamTemplate): the item's id and index put in once an item. */
  textDelta: streamTemplate(
    ([item_id, output_index]: [string, number], delta: string, sequence_number: number): StreamEvent => ({ type: 'response.output_text.delta', item_id, output_index, content_index: 0, delta, logprobs: [], sequence_number }),
    2,
    'response.output_text.delta',
  ),
  added: eventTemplate(
    (output_index: number, id: string, sequence_number: number): StreamEvent => ({ type: 'response.output_item.added', output_index, item: { type: 'message', id, status: 'in_progress', role: 'assistant', content: [] }, sequence_number }),
    'response.output_item.added',
  ),
  partAdded: eventTemplate(
    (item_id: string, output_index: number, sequence_number: number): StreamEvent => ({ type: 'response.content_part.added', item_id, output_index, content_index: 0, part: { type: 'output_text', text: '', annotations: [] }, sequence_number }),
    'response.content_part.added',
  ),
  textDone: eventTemplate(
    (item_id: string, output_index: number, text: string, sequence_number: number): StreamEvent => ({ type: 'response.output_text.done', item_id, output_index, content_index: 0, text, logprobs: [], sequence_number }),
    'response.output_text.done',
  ),
  partDone: eventTemplate(
    (item_id: string, output_index: number, text: string, sequence_number: number): StreamEvent => ({ type: 'response.content_part.done', item_id, output_index, content_index: 0, part: { type: 'output_text', text, annotations: [] }, sequence_number }),
    'response.content_part.done',
  ),
  done: eventTemplate(
    (output_index: number, id: string, status: string, text: string, sequence_number: number): StreamEvent => ({
      type: 'response.output_item.done',
      output_index,
      item: { type: 'message', id, status: status as MessageItem['status'], role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] },
      sequence_number,
    }),
    'response.output_item.done',
  ),
};

/** A function call's arguments, one delta per token (streamTemplate): the item's id and index put in once a call. */
const argumentsDelta = streamTemplate(
  ([item_id, output_index]: [string, number], delta: string, sequence_number: number): StreamEvent => ({ type: 'response.function_call_arguments.delta', item_id, output_index, delta, sequence_number }),
  2,
  'response.function_call_arguments.delta',
);

export interface ResponseWriter extends AnswerWriter {
  /** The whole response once the answer has ended (what `response.completed` carries, and what is kept). */
  responseAt(end: End): Response;
}

/**
 * The writer of the Responses API's event stream: created, in progress, each output item as it comes (added,
 * its text or arguments in deltas of one piece, done), then completed or incomplete with the whole response;
 * every event with a rising `sequence_number`. A failure after the stream has begun is an `error` event.
 *
 * @example
 *   const writer = responseWriter(body, { id: 'resp_…', createdAt, model: 'gpt-4o-mini', newId });
 */
export function responseWriter(body: ResponseRequest, head: ResponseHead): ResponseWriter {
  let sequence = 0;
  // Objects are built field by field or added to, never as `{ ...x, more }`: see test/server/hidden-classes.test.ts.
  const event = (data: EventBody<StreamEvent>): SseEvent => ({ event: data.type, data: Object.assign(data, { sequence_number: sequence++ }) });
  let started = false;
  const output: OutputItem[] = [];
  /** The item being written: a message and its text so far, or a call. */
  let open: ({ item: MessageItem } | { item: CallItem; call: number }) & { pieces: string[]; delta: (piece: string, sequence_number: number) => SseEvent } | undefined;
  let final: Response | undefined;

  /** Ends the open item; a message cut by max_output_tokens is `incomplete`. */
  function close(out: SseEvent[], cut: boolean): void {
    if (!open) return;
    const output_index = output.length;
    const text = open.pieces.join('');
    if (open.item.type === 'message') {
      const item: MessageItem = { type: 'message', id: open.item.id, status: cut ? 'incomplete' : 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] };
      out.push(messageEvents.textDone(item.id, output_index, text, sequence++));
      out.push(messageEvents.partDone(item.id, output_index, text, sequence++));
      out.push(messageEvents.done(output_index, item.id, item.status, text, sequence++));
      output.push(item);
    } else {
      const item: CallItem = { type: 'function_call', id: open.item.id, call_id: open.item.call_id, name: open.item.name, arguments: text, status: 'completed' };
      out.push(event({ type: 'response.function_call_arguments.done', item_id: item.id ?? '', output_index, arguments: text }));
      out.push(event({ type: 'response.output_item.done', output_index, item }));
      output.push(item);
    }
    open = undefined;
  }

  function openMessage(out: SseEvent[]): void {
    const item: MessageItem = { type: 'message', id: head.newId('msg_'), status: 'in_progress', role: 'assistant', content: [] };
    const output_index = output.length;
    open = { item, pieces: [], delta: messageEvents.textDelta(item.id, output_index) };
    out.push(messageEvents.added(output_index, item.id, sequence++));
    out.push(messageEvents.partAdded(item.id, output_index, sequence++));
  }

  const writer: ResponseWriter = {
    responseAt(end) {
      final ??= responseOf(body, head, output, end);
      return final;
    },
    write(step) {
      // The common step, a piece of the open message: its one event in an array of one (see chunks.ts).
      if (step.type === 'text' && open?.item.type === 'message') {
        open.pieces.push(step.text);
        return [open.delta(step.text, sequence++)];
      }
      const out: SseEvent[] = [];
      if (!started) {
        started = true;
        const opening = responseOf(body, head, [], { finishReason: 'stop', promptTokens: 0, completionTokens: 0 });
        opening.status = 'in_progress';
        opening.usage = null;
        // Both events carry the same response: serialised once (eventTemplate), the type and number put in.
        const opened = eventTemplate((type: string, sequence_number: number) => ({ type, response: opening, sequence_number }), (type) => type);
        for (const type of ['response.created', 'response.in_progress'] as const) out.push(opened(type, sequence++));
      }
      switch (step.type) {
        case 'text':
          if (open?.item.type !== 'message') {
            close(out, false);
            openMessage(out);
          }
          open!.pieces.push(step.text);
          out.push(open!.delta(step.text, sequence++));
          break;
        case 'tool-call': {
          close(out, false);
          const item: CallItem = { type: 'function_call', id: head.newId('fc_'), call_id: step.id, name: step.name, arguments: '', status: 'in_progress' };
          const output_index = output.length;
          open = { item, call: step.index, pieces: [], delta: argumentsDelta(item.id ?? '', output_index) };
          out.push(event({ type: 'response.output_item.added', output_index, item }));
          break;
        }
        case 'tool-arguments':
          // Pieces of a call other than the one being written (an upstream that interleaves them) cannot be
          // placed in this protocol's order, and the call's item says its whole arguments when done.
          if (open && 'call' in open && open.call === step.index) {
            open.pieces.push(step.text);
            out.push(open.delta(step.text, sequence++));
          }
          break;
        case 'end': {
          const cut = step.finishReason === 'length';
          // An answer of nothing is one empty message, as the JSON answer is; one cut before its first piece has none.
          if (!open && output.length === 0 && !cut) openMessage(out);
          close(out, cut);
          const response = writer.responseAt(step);
          out.push(event({ type: response.status === 'incomplete' ? 'response.incomplete' : 'response.completed', response }));
          break;
        }
      }
      return out;
    },
    fail: (_status, message) => [event({ type: 'error', code: null, message, param: null } as EventBody<StreamEvent>)],
  };
  return writer;
}
