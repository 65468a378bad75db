/**
 * The rules of a streamed chat answer (OpenAI's framing: `chat-stream`), checked on one exchange: content
 * type, data-only framing, `[DONE]` last, every chunk valid against the chunk schema, the role first, one
 * `id`/`created`/`model`, `finish_reason` on the last content chunk only, the usage chunk exactly when it was
 * asked for (its total the sum of its parts), and each tool call opened by a delta with its `index` (the next
 * one), `id` and function `name`, its `arguments` pieces adding up to JSON.
 */
import { describeErrors } from '../../contract/index.ts';
import type { Tester } from '../check.ts';
import type { Exchange } from '../http.ts';
import { usageAddsUp } from '../expectations.ts';
import { schemaLocation } from '../schema.ts';
import { parseEventStream } from '../../client/sse.ts';

const SSE = 'text/event-stream';
const RULE = 'chat-stream';

interface ToolCallDelta {
  index?: unknown;
  id?: unknown;
  function?: { name?: unknown; arguments?: unknown };
}

export interface Chunk {
  id?: unknown;
  created?: unknown;
  model?: unknown;
  choices?: Array<{ delta?: { role?: unknown; content?: unknown; tool_calls?: ToolCallDelta[] }; finish_reason?: unknown }>;
  usage?: unknown;
}

/** What a stream adds up to: its chunks, and the tool calls its deltas made (by index). */
export interface StreamedChat {
  chunks: Chunk[];
  calls: Array<{ id: unknown; name: unknown; arguments: string }>;
}

/** Checks the framing and every chunk of a streamed answer; returns the chunks that parsed and the tool calls they make. */
export function analyseChatStream(t: Tester, ex: Exchange, chunkPointer: string, expect: { usage: boolean }): StreamedChat {
  const res = ex.response!;
  const streamed: StreamedChat = { chunks: [], calls: [] };
  if (!t.expect(res.contentType?.startsWith(SSE) ?? false, `a streamed answer has content type ${res.contentType}, not ${SSE}`, RULE, ex)) return streamed;
  const { events, problems } = parseEventStream(res.text);
  for (const p of problems) t.fail(p, `${RULE}: framing`, ex);
  const doneAt = events.indexOf('[DONE]');
  t.expect(doneAt >= 0 && doneAt === events.length - 1, doneAt < 0 ? 'the stream does not end with data: [DONE]' : `data: [DONE] is followed by ${events.length - 1 - doneAt} more events`, `${RULE}: the stream ends with data: [DONE]`, ex);
  const validate = t.ctx.contract.validatorAt(chunkPointer);
  const chunks = streamed.chunks;
  let invalid = 0;
  for (const [i, data] of events.entries()) {
    if (data === '[DONE]') continue;
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch {
      if (invalid++ < 3) t.fail(`event ${i} is not JSON: ${JSON.stringify(data.slice(0, 120))}`, `${RULE}: framing`, ex);
      continue;
    }
    if (!validate(chunk) && invalid++ < 3) {
      t.fail(`event ${i}: ${describeErrors(validate.errors)}`, schemaLocation(chunkPointer, validate.errors?.[0]?.schemaPath ?? ''), ex);
    }
    chunks.push(chunk as Chunk);
  }
  if (!t.expect(chunks.length > 0, 'the stream has no chunks', RULE, ex)) return streamed;
  t.expect(chunks[0]!.choices?.[0]?.delta?.role === 'assistant', `the first chunk's delta has role ${JSON.stringify(chunks[0]!.choices?.[0]?.delta?.role)}, not "assistant"`, `${RULE}: the role in the first delta`, ex);
  const first = chunks[0]!;
  const drift = chunks.findIndex((c) => c.id !== first.id || c.created !== first.created || c.model !== first.model);
  t.expect(drift < 0, `chunk ${drift} has another id, created or model than the first`, `${RULE}: all chunks of one stream share id, created and model`, ex);
  const content = chunks.filter((c) => (c.choices?.length ?? 0) > 0);
  const ends = content.map((c) => c.choices?.[0]?.finish_reason ?? null);
  t.expect(ends.at(-1) !== null && ends.at(-1) !== undefined, 'the last content chunk has no finish_reason', `${RULE}: finish_reason on the last content chunk`, ex);
  const early = ends.slice(0, -1).findIndex((r) => r !== null);
  t.expect(early < 0, `content chunk ${early} already has finish_reason ${JSON.stringify(ends[early])}`, `${RULE}: finish_reason on the last content chunk`, ex);
  const usageChunks = chunks.filter((c) => c.usage !== undefined && c.usage !== null);
  if (expect.usage) {
    const last = chunks.at(-1)!;
    if (t.expect(usageChunks.length === 1 && last.usage != null && (last.choices?.length ?? 0) === 0, `with include_usage the last chunk before [DONE] must carry usage and empty choices (${usageChunks.length} chunks carry usage)`, `${RULE}: the usage chunk`, ex)) {
      usageAddsUp(t, ex, last.usage);
    }
  } else if (t.ctx.profile.stateful) {
    t.expect(usageChunks.length === 0, `${usageChunks.length} chunks carry usage without stream_options.include_usage`, `${RULE}: the usage chunk only with include_usage`, ex);
  }
  toolCalls(t, ex, streamed, String(ends.at(-1)));
  return streamed;
}

/** Each tool call opened at the next index with its id and name, later deltas adding only arguments that end as JSON. */
function toolCalls(t: Tester, ex: Exchange, streamed: StreamedChat, finish: string): void {
  const rule = `${RULE}: tool call deltas`;
  for (const [i, chunk] of streamed.chunks.entries()) {
    for (const delta of chunk.choices?.[0]?.delta?.tool_calls ?? []) {
      const index = typeof delta.index === 'number' ? delta.index : -1;
      const call = streamed.calls[index];
      if (!call) {
        if (!t.expect(index === streamed.calls.length, `chunk ${i} opens tool call index ${JSON.stringify(delta.index)} where ${streamed.calls.length} comes next`, rule, ex)) return;
        t.expect(typeof delta.id === 'string' && typeof delta.function?.name === 'string', `the first delta of tool call ${index} has no id or no function name`, rule, ex);
        streamed.calls.push({ id: delta.id, name: delta.function?.name, arguments: String(delta.function?.arguments ?? '') });
        continue;
      }
      t.expect(delta.id === undefined || delta.id === call.id, `chunk ${i} gives tool call ${index} another id (${JSON.stringify(delta.id)}, opened as ${JSON.stringify(call.id)})`, rule, ex);
      call.arguments += String(delta.function?.arguments ?? '');
    }
  }
  if (finish === 'length') return;
  for (const [index, call] of streamed.calls.entries()) {
    try {
      JSON.parse(call.arguments);
    } catch {
      t.fail(`the arguments of tool call ${index} (${JSON.stringify(call.name)}) do not add up to JSON: ${JSON.stringify(call.arguments.slice(0, 120))}`, rule, ex);
    }
  }
}
