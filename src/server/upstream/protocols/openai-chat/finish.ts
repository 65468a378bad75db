/** A chat completion's `finish_reason` in the gateway's terms, for whole answers and streams alike. */
import type { FinishReason } from '../../../domain/answer-events.ts';
import { malformed } from '../failures.ts';
import { PROTOCOL } from './name.ts';

/**
 * `content_filter` (text withheld by OpenAI's filter) ends the answer as `stop`: it was not cut by a token
 * limit, and no client protocol has a reason of its own for it. `function_call` is the deprecated name of
 * `tool_calls`. An answer that holds tool calls is `tool_calls` even where a compatible server says `stop`,
 * because clients decide by the reason whether to run the calls. A reason OpenAI does not document yet is
 * read as the answer's natural end.
 *
 * @example
 * finishOf('stop', true); // 'tool_calls'
 */
export function finishOf(reason: unknown, hasCalls: boolean): FinishReason {
  if (typeof reason !== 'string') throw malformed(PROTOCOL, 'an answer without a finish_reason');
  if (reason === 'length') return 'length';
  if (reason === 'tool_calls' || reason === 'function_call' || hasCalls) return 'tool_calls';
  return 'stop';
}
