/**
 * An Anthropic Messages request read as the gateway's chat request: the same sources, tokenizer and
 * limits serve both protocols (decision D27). The system prompt becomes a system message; `tool_use` blocks
 * become an assistant's tool calls and `tool_result` blocks the tool messages that answer them, so token
 * counts and tool round trips behave exactly as on the chat endpoint.
 */
import type { components } from '../../../../generated/schema.d.ts';
import type { ChatRequest } from '../../domain/chat.ts';
import { invalidRequest } from '../../domain/errors.ts';

type MessagesRequest = components['schemas']['AnthropicMessagesRequest'];
type CountTokensRequest = components['schemas']['AnthropicCountTokensRequest'];
type InputMessage = components['schemas']['AnthropicInputMessage'];
type Block = components['schemas']['AnthropicContentBlockParam'];
type ToolResultBlock = components['schemas']['AnthropicToolResultBlockParam'];
type ChatMessage = ChatRequest['messages'][number];
type TextPart = { type: 'text'; text: string };
type ImagePart = { type: 'image_url'; image_url: { url: string } };

/** An image block as the chat endpoint's image part: counted as an image, its pixels not read. */
function imagePart(source: { type: string; media_type?: string; data?: string; url?: string }): ImagePart {
  const url = source.type === 'url' ? (source.url ?? '') : `data:${source.media_type ?? 'image/png'};base64,${source.data ?? ''}`;
  return { type: 'image_url', image_url: { url } };
}

/** The text of a block the engine reads as text, or undefined. */
function textOf(block: Block): string | undefined {
  if (block.type === 'text') return block.text;
  if (block.type === 'document' && block.source.type === 'text' && typeof block.source.data === 'string') return block.source.data;
  return undefined;
}

function toolResultText(block: ToolResultBlock): string {
  const content = block.content;
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

/** One Anthropic turn as chat messages: a user turn's tool results come first, as tool messages. */
function chatMessagesOf(turn: InputMessage): ChatMessage[] {
  const blocks: Block[] = typeof turn.content === 'string' ? [{ type: 'text', text: turn.content }] : turn.content;
  if (turn.role === 'system') {
    const parts = blocks.flatMap((b) => textOf(b) ?? []).map((text) => ({ type: 'text', text }));
    return [{ role: 'system', content: parts } as ChatMessage];
  }
  if (turn.role === 'assistant') {
    const text = blocks.flatMap((b) => textOf(b) ?? []).join('');
    const calls = blocks.flatMap((b) =>
      b.type === 'tool_use' ? [{ id: b.id, type: 'function' as const, function: { name: b.name, arguments: JSON.stringify(b.input) } }] : []);
    return [{ role: 'assistant', content: text === '' && calls.length > 0 ? null : text, ...(calls.length > 0 && { tool_calls: calls }) } as ChatMessage];
  }
  const messages: ChatMessage[] = [];
  const parts: Array<TextPart | ImagePart> = [];
  for (const block of blocks) {
    if (block.type === 'tool_result') {
      messages.push({ role: 'tool', tool_call_id: block.tool_use_id, content: toolResultText(block) } as ChatMessage);
      continue;
    }
    if (block.type === 'image') {
      parts.push(imagePart(block.source));
      continue;
    }
    const text = textOf(block);
    if (text !== undefined) parts.push({ type: 'text', text });
  }
  if (parts.length > 0 || messages.length === 0) messages.push({ role: 'user', content: parts } as ChatMessage);
  return messages;
}

/** `tool_choice` in the chat endpoint's terms. */
function toolChoiceOf(choice: MessagesRequest['tool_choice']): ChatRequest['toolChoice'] {
  if (choice === undefined) return undefined;
  switch (choice.type) {
    case 'any':
      return 'required';
    case 'tool':
      if (!choice.name) throw invalidRequest("tool_choice of type 'tool' needs the 'name' of the tool to call.");
      return { type: 'function', function: { name: choice.name } };
    default:
      return choice.type;
  }
}

/**
 * The gateway's chat request for a Messages (or count_tokens) request, to `model` (the catalogue's id of the
 * model the request names).
 *
 * @example
 * toChatRequest({ model: 'claude-haiku-4-5', max_tokens: 64, system: 'Be brief.', messages: [{ role: 'user', content: 'Hi' }] }, 'claude-haiku-4-5');
 * // { model, messages: [{ role: 'system', … }, { role: 'user', … }], maxTokens: 64, … }
 */
export function toChatRequest(body: MessagesRequest | CountTokensRequest, model: string): ChatRequest {
  const system: ChatMessage[] = [];
  if (typeof body.system === 'string') system.push({ role: 'system', content: body.system } as ChatMessage);
  else if (body.system !== undefined && body.system.length > 0) {
    system.push({ role: 'system', content: body.system.map((block) => ({ type: 'text', text: block.text })) } as ChatMessage);
  }
  const tools = body.tools ?? [];
  const full = body as MessagesRequest;
  return {
    model,
    messages: [...system, ...body.messages.flatMap(chatMessagesOf)],
    temperature: full.temperature ?? null,
    maxTokens: full.max_tokens ?? null,
    tools: tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, ...(tool.description !== undefined && { description: tool.description }), parameters: tool.input_schema },
    })),
    toolChoice: toolChoiceOf(body.tool_choice),
    parallelToolCalls: body.tool_choice?.disable_parallel_tool_use === true ? false : true,
    stopSequences: full.stop_sequences ?? [],
  };
}
