/**
 * An answer as OpenAI's `chat.completion.chunk` events (decision D17): the role first, one delta per piece of
 * text (or of a tool call's arguments), the finish reason, the usage when asked for, and `[DONE]`. A stream
 * that fails after it began ends with one `{"error": message}` event and no `[DONE]` (decision D31), which
 * OpenAI's SDKs raise as an error.
 */
import type { components } from '../../../../generated/schema.d.ts';
import type { AnswerEvent } from '../../domain/answer-events.ts';
import type { AnswerWriter } from '../../http/answer-stream.ts';
import { eventTemplate, streamTemplate, type SseEvent } from '../../http/sse.ts';

type Chunk = components['schemas']['ChatCompletionChunk'];
type Delta = Chunk['choices'][number]['delta'];
type Usage = components['schemas']['Usage'];

/** What every chunk of one completion repeats. */
export interface ChunkHead {
  id: string;
  created: number;
  model: string;
}

/** A chunk of one completion: what all its chunks repeat, and this one's delta and finish reason. */
function chunkData(head: ChunkHead, includeUsage: boolean, delta: Delta, finish: Chunk['choices'][number]['finish_reason'] = null): Chunk {
  // The head's fields written out, not spread: see test/server/hidden-classes.test.ts.
  return {
    id: head.id,
    created: head.created,
    model: head.model,
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
    // With include_usage, every chunk but the last carries `usage: null`, as OpenAI's do.
    ...(includeUsage && { usage: null }),
  };
}

/**
 * The chunks every stream sends once, the role's and the finish reason's, made once for the process (without
 * and with include_usage's `usage: null`) with the head put in, rather than by JSON.stringify in every stream.
 */
const roleChunk = [false, true].map((includeUsage) =>
  eventTemplate((id: string, created: number, model: string) => chunkData({ id, created, model }, includeUsage, { role: 'assistant', content: '' })),
);
/**
 * The deltas, one per token, of the text and of a call's arguments: serialised once for the process, each
 * stream's head (and call's index) put in once (streamTemplate).
 */
const textChunk = [false, true].map((includeUsage) =>
  streamTemplate(([id, created, model]: [string, number, string], content: string) => chunkData({ id, created, model }, includeUsage, { content }), 3),
);
const argumentsChunk = [false, true].map((includeUsage) =>
  streamTemplate(
    ([id, created, model, index]: [string, number, string, number], piece: string) => chunkData({ id, created, model }, includeUsage, { tool_calls: [{ index, function: { arguments: piece } }] }),
    4,
  ),
);
const finishChunk = [false, true].map((includeUsage) =>
  eventTemplate((id: string, created: number, model: string, finish: string) => chunkData({ id, created, model }, includeUsage, {}, finish as Chunk['choices'][number]['finish_reason'])),
);

/**
 * The writer of one completion's chunks; `includeUsage` is the request's `stream_options.include_usage`.
 *
 * @example
 *   const writer = chatChunks({ id: 'chatcmpl-…', created, model: 'gpt-4o-mini' }, false);
 */
export function chatChunks(head: ChunkHead, includeUsage: boolean): AnswerWriter {
  const data = (delta: Delta, finish: Chunk['choices'][number]['finish_reason'] = null): Chunk => chunkData(head, includeUsage, delta, finish);
  const chunk = (delta: Delta, finish: Chunk['choices'][number]['finish_reason'] = null): SseEvent => ({ data: data(delta, finish) });
  const text = textChunk[Number(includeUsage)]!(head.id, head.created, head.model);
  let call: { index: number; piece: (text: string) => SseEvent } | undefined;
  let opened = false;

  /** The role chunk: its content is null when the answer begins with a tool call (or is one cut to nothing), as OpenAI's. */
  function open(first: AnswerEvent): SseEvent {
    opened = true;
    const noText = first.type === 'tool-call' || (first.type === 'end' && first.finishReason === 'length');
    return noText ? chunk({ role: 'assistant', content: null }) : roleChunk[Number(includeUsage)]!(head.id, head.created, head.model);
  }

  return {
    write(step) {
      // The common step, a piece of text after the first: its one event in an array of one (an empty array
      // pushed to grows a backing store of seventeen, on every token).
      if (opened && step.type === 'text') return [text(step.text)];
      const out = opened ? [] : [open(step)];
      switch (step.type) {
        case 'text':
          out.push(text(step.text));
          break;
        case 'tool-call': {
          const index = step.index;
          call = { index, piece: argumentsChunk[Number(includeUsage)]!(head.id, head.created, head.model, index) };
          out.push(chunk({ tool_calls: [{ index: step.index, id: step.id, type: 'function', function: { name: step.name, arguments: '' } }] }));
          break;
        }
        case 'tool-arguments':
          // A call's pieces follow the call that opened it (AnswerEvent's order); another index is made whole.
          out.push(step.index === call?.index ? call.piece(step.text) : chunk({ tool_calls: [{ index: step.index, function: { arguments: step.text } }] }));
          break;
        case 'end': {
          out.push(finishChunk[Number(includeUsage)]!(head.id, head.created, head.model, step.finishReason));
          if (includeUsage) {
            const usage: Usage = { prompt_tokens: step.promptTokens, completion_tokens: step.completionTokens, total_tokens: step.promptTokens + step.completionTokens };
            out.push({ data: { id: head.id, created: head.created, model: head.model, object: 'chat.completion.chunk', choices: [], usage } satisfies Chunk });
          }
          out.push({ data: '[DONE]' });
          break;
        }
      }
      return out;
    },
    fail: (_status, message) => [{ data: { error: message } }],
  };
}
