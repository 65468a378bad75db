/**
 * A Responses request read as the gateway's chat request (decision D29): `instructions` and
 * `system`/`developer` messages become system messages, `function_call` items an assistant's tool calls,
 * `function_call_output` items the tool messages that answer them; items of other types are not read. The
 * same sources, tokenizer and limits then serve this protocol as they serve chat completions.
 */
import type { components } from '../../../../generated/schema.d.ts';
import type { ChatRequest, ResponseFormat } from '../../domain/chat.ts';

type ResponseRequest = components['schemas']['ResponseRequest'];
type InputItem = components['schemas']['ResponseInputItem'];
type ContentPart = components['schemas']['ResponseContentPart'];
type ChatMessage = ChatRequest['messages'][number];
type Json = Record<string, unknown>;

/** The request's `input` as items: a string is one user message. */
export function inputItems(input: ResponseRequest['input']): InputItem[] {
  if (input === undefined) return [];
  return typeof input === 'string' ? [{ role: 'user', content: input }] : input;
}

function textOfParts(content: string | ContentPart[]): string {
  if (typeof content === 'string') return content;
  return content.flatMap((part) => ('text' in part && typeof part.text === 'string' ? [part.text] : part.type === 'refusal' ? [part.refusal] : [])).join('');
}

/** A user message's parts as the chat endpoint's: text parts, and images counted as images. */
function userContent(content: string | ContentPart[]): ChatMessage['content'] {
  if (typeof content === 'string') return content;
  const parts: Json[] = [];
  for (const part of content) {
    if (part.type === 'input_image') parts.push({ type: 'image_url', image_url: { url: part.image_url ?? '' } });
    else if ('text' in part && typeof part.text === 'string') parts.push({ type: 'text', text: part.text });
  }
  return parts as unknown as ChatMessage['content'];
}

/** The conversation's items as chat messages; consecutive function calls join one assistant message. */
function chatMessages(items: readonly unknown[]): ChatMessage[] {
  const messages: Json[] = [];
  for (const raw of items) {
    const item = raw as Json;
    const type = item.type ?? 'message';
    if (type === 'message') {
      const role = item.role === 'developer' ? 'system' : item.role;
      const content = item.content as string | ContentPart[];
      messages.push(role === 'user' ? { role, content: userContent(content) } : { role, content: textOfParts(content) });
    } else if (type === 'function_call') {
      const call = { id: item.call_id, type: 'function', function: { name: item.name, arguments: item.arguments } };
      const last = messages.at(-1);
      if (last?.role === 'assistant') last.tool_calls = [...((last.tool_calls as unknown[] | undefined) ?? []), call];
      else messages.push({ role: 'assistant', content: null, tool_calls: [call] });
    } else if (type === 'function_call_output') {
      messages.push({ role: 'tool', tool_call_id: item.call_id, content: textOfParts(item.output as string | ContentPart[]) });
    }
  }
  return messages as unknown as ChatMessage[];
}

function formatOf(format: NonNullable<ResponseRequest['text']>['format']): ResponseFormat | undefined {
  if (format?.type === 'json_schema') return { type: 'json_schema', name: format.name, schema: format.schema };
  if (format?.type === 'json_object') return { type: 'json_object' };
  return undefined;
}

/**
 * The gateway's chat request for a Responses request continuing `history` (the stored conversation of its
 * `previous_response_id`, or none), to `model` (the catalogue's id of the model the request names).
 *
 * @example
 * toChatRequest({ model: 'gpt-4o-mini', instructions: 'Be brief.', input: 'Hi' }, [], 'gpt-4o-mini');
 * // { model, messages: [{ role: 'system', … }, { role: 'user', content: 'Hi' }], … }
 */
export function toChatRequest(body: ResponseRequest, history: readonly unknown[], model: string): ChatRequest {
  const functions = (body.tools ?? []).flatMap((tool) =>
    tool.type === 'function' && 'name' in tool
      ? [{ type: 'function' as const, function: { name: tool.name, ...(tool.description != null && { description: tool.description }), parameters: tool.parameters } }]
      : []);
  const choice = body.tool_choice;
  const toolChoice =
    functions.length === 0 || choice === undefined ? undefined
      : typeof choice === 'string' ? choice
        : choice.type === 'function' && 'name' in choice ? { type: 'function' as const, function: { name: choice.name } }
          : 'auto';
  const instructions = body.instructions ? [{ role: 'system', content: body.instructions } as ChatMessage] : [];
  return {
    model,
    messages: [...instructions, ...chatMessages([...history, ...inputItems(body.input)])],
    temperature: body.temperature ?? null,
    maxTokens: body.max_output_tokens ?? null,
    tools: functions,
    toolChoice: toolChoice as ChatRequest['toolChoice'],
    parallelToolCalls: body.parallel_tool_calls ?? true,
    responseFormat: formatOf(body.text?.format),
  };
}
