/**
 * The rules of a streamed chat answer (D17, OpenAI's framing), checked on one exchange: content type,
 * data-only framing, `[DONE]` last, every chunk valid against the chunk schema, the role first, one
 * `id`/`created`/`model`, `finish_reason` on the last content chunk only, and the usage chunk exactly when
 * it was asked for.
 */
import { contract, describeErrors } from '../contract/index.ts';
import type { Tester } from './check.ts';
import type { Exchange } from './http.ts';
import { schemaLocation } from './schema.ts';
import { parseEventStream } from '../client/sse.ts';

const SSE = 'text/event-stream';
const RULE = 'D17';

export interface Chunk {
  id?: unknown;
  created?: unknown;
  model?: unknown;
  choices?: Array<{ delta?: { role?: unknown; content?: unknown }; finish_reason?: unknown }>;
  usage?: unknown;
}

/** Checks the framing and every chunk of a streamed answer; returns the chunks that parsed. */
export function analyseStream(t: Tester, ex: Exchange, chunkPointer: string, expect: { usage: boolean }): Chunk[] {
  const res = ex.response!;
  if (!t.expect(res.contentType?.startsWith(SSE) ?? false, `a streamed answer has content type ${res.contentType}, not ${SSE}`, RULE, ex)) return [];
  const { events, problems } = parseEventStream(res.text);
  for (const p of problems) t.fail(p, `${RULE}: framing`, ex);
  const doneAt = events.indexOf('[DONE]');
  t.expect(doneAt >= 0 && doneAt === events.length - 1, doneAt < 0 ? 'the stream does not end with data: [DONE]' : `data: [DONE] is followed by ${events.length - 1 - doneAt} more events`, `${RULE}: the stream ends with data: [DONE]`, ex);
  const validate = contract.validatorAt(chunkPointer);
  const chunks: Chunk[] = [];
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
  if (!t.expect(chunks.length > 0, 'the stream has no chunks', RULE, ex)) return chunks;
  t.expect(chunks[0]!.choices?.[0]?.delta?.role === 'assistant', `the first chunk's delta has role ${JSON.stringify(chunks[0]!.choices?.[0]?.delta?.role)}, not "assistant"`, `${RULE}: the role in the first delta`, ex);
  const first = chunks[0]!;
  const drift = chunks.findIndex((c) => c.id !== first.id || c.created !== first.created || c.model !== first.model);
  t.expect(drift < 0, `chunk ${drift} has another id, created or model than the first`, `#${chunkPointer}: all chunks of one stream share id, created and model`, ex);
  const content = chunks.filter((c) => (c.choices?.length ?? 0) > 0);
  const ends = content.map((c) => c.choices?.[0]?.finish_reason ?? null);
  t.expect(ends.at(-1) !== null && ends.at(-1) !== undefined, 'the last content chunk has no finish_reason', `${RULE}: finish_reason on the last content chunk`, ex);
  const early = ends.slice(0, -1).findIndex((r) => r !== null);
  t.expect(early < 0, `content chunk ${early} already has finish_reason ${JSON.stringify(ends[early])}`, `${RULE}: finish_reason on the last content chunk`, ex);
  const usageChunks = chunks.filter((c) => c.usage !== undefined && c.usage !== null);
  if (expect.usage) {
    const last = chunks.at(-1)!;
    t.expect(usageChunks.length === 1 && last.usage != null && (last.choices?.length ?? 0) === 0, `with include_usage the last chunk before [DONE] must carry usage and empty choices (${usageChunks.length} chunks carry usage)`, `#${chunkPointer}/properties/usage`, ex);
  } else if (t.ctx.profile.stateful) {
    t.expect(usageChunks.length === 0, `${usageChunks.length} chunks carry usage without stream_options.include_usage`, `#${chunkPointer}/properties/usage`, ex);
  }
  return chunks;
}
