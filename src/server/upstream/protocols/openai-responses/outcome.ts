/** How a response ended (status, incomplete_details) and what it cost, for whole answers and streams alike. */
import type { FinishReason } from '../../../domain/answer-events.ts';
import { malformed } from '../failures.ts';
import { isRecord, tokenCount, type Json } from '../read.ts';
import { PROTOCOL } from './name.ts';

/**
 * `completed` is the natural end, or `tool_calls` when the output holds function calls. `incomplete` is an
 * answer cut short: `content_filter` (text withheld) is not a token limit and ends as `stop`; any other
 * reason (`max_output_tokens`, and `max_tokens` as the streaming reference's example spells it) is the
 * token limit: `length`.
 *
 * @example
 * finishOf({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } }, false); // 'length'
 */
export function finishOf(response: Json, hasCalls: boolean): FinishReason {
  if (response.status === 'completed') return hasCalls ? 'tool_calls' : 'stop';
  if (response.status === 'incomplete') {
    const reason = isRecord(response.incomplete_details) ? response.incomplete_details.reason : undefined;
    return reason === 'content_filter' ? 'stop' : 'length';
  }
  throw malformed(PROTOCOL, `a response whose status is ${JSON.stringify(response.status)}, not completed or incomplete`);
}

/** Input and output tokens (UNCOUNTED where the upstream reported none). */
export function usageOf(response: Json): { promptTokens: number; completionTokens: number } {
  const usage = isRecord(response.usage) ? response.usage : {};
  return { promptTokens: tokenCount(usage.input_tokens), completionTokens: tokenCount(usage.output_tokens) };
}

/** The upstream's words for a failed response (`error.message`), or its status when it gave none. */
export function failureOf(response: Json): string {
  const error = isRecord(response.error) ? response.error : {};
  return typeof error.message === 'string' ? error.message : `the response's status is ${JSON.stringify(response.status)}`;
}
