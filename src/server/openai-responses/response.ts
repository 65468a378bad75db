/**
 * The text engine's answer in the Responses API's shapes (decision D29): the `response` object, and the
 * event stream whose deltas add up to it, every event with a rising `sequence_number`.
 */
import type { components } from '../../../generated/schema.d.ts';
import type { ChatAnswer } from '../domain/engine/text/index.ts';
import { eventTemplate, type SseEvent } from '../http/sse.ts';

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
  const cut = answer.finishReason === 'length';
  return {
    id: head.id,
    object: 'response',
    created_at: head.createdAt,
    status: cut ? 'incomplete' : 'completed',
    model: head.model,
    output: outputOf(answer, head),
    usage: {
      input_tokens: answer.promptTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: answer.completionTokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: answer.promptTokens + answer.completionTokens,
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

/**
 * The response as the Responses API's event stream: created, in progress, each output item (added, its
 * text or arguments in deltas of one token, done), then completed or incomplete with the whole response.
 */
export function* responseEvents(response: Response, answer: ChatAnswer): Generator<SseEvent> {
  let sequence = 0;
  const event = (data: EventBody<StreamEvent>): SseEvent => ({ event: data.type, data: { ...data, sequence_number: sequence++ } });
  const opening: Response = { ...response, status: 'in_progress', output: [], usage: null, incomplete_details: null };
  yield event({ type: 'response.created', response: opening });
  yield event({ type: 'response.in_progress', response: opening });
  let call = 0;
  for (const [output_index, item] of response.output.entries()) {
    if (item.type === 'message') {
      const item_id = item.id;
      const text = item.content[0]?.text ?? '';
      yield event({ type: 'response.output_item.added', output_index, item: { ...item, status: 'in_progress', content: [] } });
      yield event({ type: 'response.content_part.added', item_id, output_index, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
      const textDelta = eventTemplate(
        (delta: string, sequence_number: number): StreamEvent => ({ type: 'response.output_text.delta', item_id, output_index, content_index: 0, delta, logprobs: [], sequence_number }),
        'response.output_text.delta',
      );
      for (const delta of answer.contentPieces) yield textDelta(delta, sequence++);
      yield event({ type: 'response.output_text.done', item_id, output_index, content_index: 0, text, logprobs: [] });
      yield event({ type: 'response.content_part.done', item_id, output_index, content_index: 0, part: { type: 'output_text', text, annotations: [] } });
    } else {
      const item_id = item.id ?? '';
      yield event({ type: 'response.output_item.added', output_index, item: { ...item, arguments: '', status: 'in_progress' } });
      const argumentsDelta = eventTemplate(
        (delta: string, sequence_number: number): StreamEvent => ({ type: 'response.function_call_arguments.delta', item_id, output_index, delta, sequence_number }),
        'response.function_call_arguments.delta',
      );
      for (const delta of answer.toolCalls[call++]?.argumentPieces ?? []) yield argumentsDelta(delta, sequence++);
      yield event({ type: 'response.function_call_arguments.done', item_id, output_index, arguments: item.arguments });
    }
    yield event({ type: 'response.output_item.done', output_index, item });
  }
  yield event({ type: response.status === 'incomplete' ? 'response.incomplete' : 'response.completed', response });
}
