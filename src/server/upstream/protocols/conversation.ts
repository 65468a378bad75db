/**
 * The gateway's chat messages reduced to the turns every upstream protocol is written from: system text,
 * a user's text and images, an assistant's text and tool calls, a tool's result. Each protocol then says
 * how its own API spells them. Only the gateway's request is read here: it was validated at the edge.
 */
import type { ChatMessage, FunctionTool } from '../../domain/chat.ts';

export type UserPart = { type: 'text'; text: string } | { type: 'image'; url: string; detail?: 'auto' | 'low' | 'high' };

export interface ToolCallTurn {
  id: string;
  name: string;
  /** JSON text, as the client sent it back. */
  arguments: string;
}

export type Turn =
  /** Each text part on its own (a system message may be several parts). */
  | { role: 'system'; texts: string[] }
  | { role: 'user'; parts: UserPart[] }
  /** `text` is '' when the turn is only tool calls. */
  | { role: 'assistant'; text: string; toolCalls: ToolCallTurn[] }
  | { role: 'tool'; toolCallId: string; texts: string[] };

type TextContent = Extract<ChatMessage, { role: 'system' }>['content'];

/** The text parts of a text-only content (a string is one part). */
function textsOf(content: TextContent | null | undefined): string[] {
  if (content === null || content === undefined) return [];
  return typeof content === 'string' ? [content] : content.map((part) => part.text);
}

function userParts(content: Extract<ChatMessage, { role: 'user' }>['content']): UserPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((part) =>
    part.type === 'text'
      ? { type: 'text', text: part.text }
      : { type: 'image', url: part.image_url.url, ...(part.image_url.detail && { detail: part.image_url.detail }) });
}

/**
 * The turns of a conversation, in order.
 *
 * @example
 * turnsOf([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }]);
 * // [{ role: 'system', texts: ['Be brief.'] }, { role: 'user', parts: [{ type: 'text', text: 'Hi' }] }]
 */
export function turnsOf(messages: readonly ChatMessage[]): Turn[] {
  return messages.map((message): Turn => {
    switch (message.role) {
      case 'system':
        return { role: 'system', texts: textsOf(message.content) };
      case 'user':
        return { role: 'user', parts: userParts(message.content) };
      case 'assistant':
        return {
          role: 'assistant',
          // An assistant's text parts are one text, as the client edges read them back.
          text: textsOf(message.content).join(''),
          toolCalls: (message.tool_calls ?? []).map((call) => ({ id: call.id, name: call.function.name, arguments: call.function.arguments })),
        };
      case 'tool':
        return { role: 'tool', toolCallId: message.tool_call_id, texts: textsOf(message.content) };
    }
  });
}

/** A function's parameters, or the schema of a function without arguments (every protocol wants one). */
export function parametersOf(tool: FunctionTool): Record<string, unknown> {
  return tool.function.parameters ?? { type: 'object', properties: {} };
}
