/**
 * Reads chat messages as they arrive on the wire. The server has validated the request already; this
 * module reduces each message to plain facts (role, text, images, tool calls) whatever form its content
 * takes: a string, an array of parts, or null next to `tool_calls`.
 */

/** One message reduced to what the engine uses. */
export interface MessageView {
  role: string;
  name: string | null;
  /** The text parts joined by newlines ('' when there are none). */
  text: string;
  /** Each text part on its own, for token counting. */
  textParts: string[];
  imageCount: number;
  toolCalls: Array<{ id: string; name: string; arguments: string }>;
  toolCallId: string | null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The facts of one message, whatever form its `content` takes (string, parts, null).
 *
 * @example
 * viewMessage({ role: 'user', content: [{ type: 'text', text: 'Hi' }] }).text; // 'Hi'
 */
export function viewMessage(message: unknown): MessageView {
  const raw = isRecord(message) ? message : {};
  const textParts: string[] = [];
  let imageCount = 0;
  const content = raw.content;
  if (typeof content === 'string') textParts.push(content);
  else if (Array.isArray(content)) {
    for (const part of content) {
      if (!isRecord(part)) continue;
      if (part.type === 'text' && typeof part.text === 'string') textParts.push(part.text);
      else if (part.type === 'image_url') imageCount++;
    }
  }
  const toolCalls: MessageView['toolCalls'] = [];
  if (Array.isArray(raw.tool_calls)) {
    for (const call of raw.tool_calls) {
      if (!isRecord(call) || !isRecord(call.function)) continue;
      toolCalls.push({
        id: typeof call.id === 'string' ? call.id : '',
        name: typeof call.function.name === 'string' ? call.function.name : '',
        arguments: typeof call.function.arguments === 'string' ? call.function.arguments : '',
      });
    }
  }
  return {
    role: typeof raw.role === 'string' ? raw.role : 'user',
    name: typeof raw.name === 'string' ? raw.name : null,
    text: textParts.join('\n'),
    textParts,
    imageCount,
    toolCalls,
    toolCallId: typeof raw.tool_call_id === 'string' ? raw.tool_call_id : null,
  };
}

/** A tool result at the end of the conversation, with the name of the function that produced it. */
export interface ToolResult {
  name: string;
  content: string;
}

/**
 * The `tool` messages that end the conversation, each matched to the call it answers.
 *
 * @example
 * trailingToolResults(views); // [{ name: 'get_weather', content: '{"temp":21}' }]
 */
export function trailingToolResults(views: readonly MessageView[]): ToolResult[] {
  const results: ToolResult[] = [];
  let i = views.length - 1;
  while (i >= 0 && views[i]?.role === 'tool') i--;
  const names = new Map<string, string>();
  for (const view of views.slice(0, i + 1)) for (const call of view.toolCalls) names.set(call.id, call.name);
  for (const view of views.slice(i + 1)) {
    results.push({ name: names.get(view.toolCallId ?? '') ?? 'the tool', content: view.text });
  }
  return results;
}

/**
 * What a user message asks: its text, or in a message of several text parts, its last non-empty part. Clients
 * put context first and the question last (Claude Code sends the environment, the date and reminders as text
 * blocks before the prompt); the answer is about the question, while every part still counts as input.
 */
function askedIn(view: MessageView): string {
  if (view.textParts.length <= 1) return view.text;
  for (let i = view.textParts.length - 1; i >= 0; i--) if (view.textParts[i]!.trim() !== '') return view.textParts[i]!;
  return view.text;
}

/**
 * The text of the last user message (or, when there is none, of the last message with text).
 *
 * @example
 * lastUserText([viewMessage({ role: 'user', content: 'Hi' })]); // 'Hi'
 */
export function lastUserText(views: readonly MessageView[]): string {
  for (let i = views.length - 1; i >= 0; i--) if (views[i]?.role === 'user') return askedIn(views[i]!);
  for (let i = views.length - 1; i >= 0; i--) if (views[i]?.text) return views[i]?.text ?? '';
  return '';
}
