/**
 * The gateway's chat request as an OpenAI Responses request: the conversation as input items (messages,
 * `function_call` and `function_call_output` items), nothing kept upstream (`store: false`: the gateway
 * keeps its own conversations, and sends the whole conversation every time).
 */
import type { ChatRequest } from '../../../domain/chat.ts';
import { parametersOf, turnsOf, type Turn, type UserPart } from '../conversation.ts';
import type { Json } from '../read.ts';
import type { UpstreamRequest } from '../types.ts';

function userContent(parts: readonly UserPart[]): string | Json[] {
  const only = parts[0];
  if (parts.length === 1 && only?.type === 'text') return only.text;
  return parts.map((part) =>
    part.type === 'text'
      ? { type: 'input_text', text: part.text }
      : { type: 'input_image', image_url: part.url, detail: part.detail ?? 'auto' });
}

/**
 * The input items of one turn. System messages stay where they are, as `system` messages (the Responses
 * API takes them among the input), rather than being moved into `instructions`: the order of the
 * conversation is kept, and several system messages stay several.
 */
function itemsOf(turn: Turn): Json[] {
  switch (turn.role) {
    case 'system':
      return [{ role: 'system', content: turn.texts.length === 1 ? turn.texts[0] : turn.texts.map((t) => ({ type: 'input_text', text: t })) }];
    case 'user':
      return [{ role: 'user', content: userContent(turn.parts) }];
    case 'assistant':
      return [
        ...(turn.text !== '' ? [{ role: 'assistant', content: turn.text }] : []),
        ...turn.toolCalls.map((call) => ({ type: 'function_call', call_id: call.id, name: call.name, arguments: call.arguments })),
      ];
    case 'tool':
      return [{ type: 'function_call_output', call_id: turn.toolCallId, output: turn.texts.join('') }];
  }
}

function toolChoice(choice: ChatRequest['toolChoice']): unknown {
  if (choice === undefined || typeof choice === 'string') return choice;
  return { type: 'function', name: choice.function.name };
}

function textFormat(format: ChatRequest['responseFormat']): Json | undefined {
  if (format?.type === 'json_object') return { type: 'json_object' };
  // `schema` is required in Responses; a chat client may leave it out, meaning any JSON object.
  if (format?.type === 'json_schema') return { type: 'json_schema', name: format.name, schema: format.schema ?? { type: 'object' } };
  return undefined;
}

/**
 * `path` is relative to the catalogue's `base_url`, which for OpenAI ends in `/v1`.
 *
 * @example
 * toUpstream({ model: 'fast', messages: [{ role: 'user', content: 'Hi' }] }, 'gpt-4.1', false);
 * // { path: '/responses', body: { model: 'gpt-4.1', input: [{ role: 'user', content: 'Hi' }], store: false } }
 */
export function toUpstream(request: ChatRequest, model: string, stream: boolean): UpstreamRequest {
  // It has no stop sequences: the gateway keeps them itself (upstream/stop-sequences.ts).
  const body: Json = { model, input: turnsOf(request.messages).flatMap(itemsOf), store: false };
  if (stream) body.stream = true;
  if (request.maxTokens != null) body.max_output_tokens = request.maxTokens;
  if (request.temperature != null) body.temperature = request.temperature;
  // Responses has no `seed`: a seed only asks for best-effort repeatability, so it is left out, not refused.
  const tools = request.tools ?? [];
  if (tools.length > 0) {
    body.tools = tools.map((tool) => ({
      type: 'function',
      name: tool.function.name,
      ...(tool.function.description !== undefined && { description: tool.function.description }),
      parameters: parametersOf(tool),
      // Responses makes function tools strict unless told otherwise; chat's functions are not strict unless
      // asked, and a strict schema must meet rules a client's schema need not meet.
      strict: tool.function.strict ?? false,
    }));
    if (request.toolChoice !== undefined) body.tool_choice = toolChoice(request.toolChoice);
    if (request.parallelToolCalls === false) body.parallel_tool_calls = false;
  }
  const format = textFormat(request.responseFormat);
  if (format) body.text = { format };
  return { path: '/responses', body };
}
