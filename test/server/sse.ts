/** Reads a chat completion stream the way an OpenAI client does: data-only events, `[DONE]` last. */
export async function readEvents(res: Response): Promise<string[]> {
  const text = await res.text();
  const events = text.split('\n\n').filter((e) => e.length > 0);
  return events.map((event) => {
    if (!event.startsWith('data: ')) throw new Error(`not a data event: ${event}`);
    return event.slice('data: '.length);
  });
}

/** Concatenates the deltas of parsed chunks into a message (content and tool calls). */
export function reassemble(chunks: any[]): { role?: string; content: string | null; tool_calls: any[]; finish_reason?: string } {
  const message: { role?: string; content: string | null; tool_calls: any[]; finish_reason?: string } = { content: null, tool_calls: [] };
  for (const chunk of chunks) {
    for (const choice of chunk.choices) {
      const delta = choice.delta;
      if (delta.role) message.role = delta.role;
      if (typeof delta.content === 'string') message.content = (message.content ?? '') + delta.content;
      for (const call of delta.tool_calls ?? []) {
        const target = (message.tool_calls[call.index] ??= { id: '', type: 'function', function: { name: '', arguments: '' } });
        if (call.id) target.id = call.id;
        if (call.function?.name) target.function.name += call.function.name;
        if (call.function?.arguments) target.function.arguments += call.function.arguments;
      }
      if (choice.finish_reason) message.finish_reason = choice.finish_reason;
    }
  }
  return message;
}
