/** Why a message ended (`stop_reason`) and what it cost (`usage`), for whole answers and streams alike. */
import type { FinishReason } from '../../../domain/answer-events.ts';
import { malformed } from '../failures.ts';
import { isRecord, stringOf, tokenCount, UNCOUNTED, type Json } from '../read.ts';
import { PROTOCOL } from './name.ts';

/**
 * `end_turn` and `stop_sequence` (naming the sequence) are `stop`; `max_tokens`, and
 * `model_context_window_exceeded` (the context window ended it), are the token limit: `length`;
 * `tool_use` is `tool_calls`. `refusal` and `pause_turn` (a server tool's pause; the gateway sends none)
 * end the text as `stop`, as does a reason added to the API later.
 *
 * @example
 * stopOf('stop_sequence', '\n\nHuman:'); // { finishReason: 'stop', stopSequence: '\n\nHuman:' }
 */
export function stopOf(reason: unknown, sequence: unknown): { finishReason: FinishReason; stopSequence: string | null } {
  if (typeof reason !== 'string') throw malformed(PROTOCOL, 'a message without a stop_reason');
  if (reason === 'max_tokens' || reason === 'model_context_window_exceeded') return { finishReason: 'length', stopSequence: null };
  if (reason === 'tool_use') return { finishReason: 'tool_calls', stopSequence: null };
  return { finishReason: 'stop', stopSequence: reason === 'stop_sequence' ? (stringOf(sequence) ?? null) : null };
}

/**
 * Input tokens as Anthropic counts them apart: `input_tokens` excludes the tokens read from and written to
 * the prompt cache, so the prompt is their sum (Anthropic's usage documentation). Each count is the latest
 * one reported (message_start, then possibly message_delta).
 */
export class Usage {
  private input = UNCOUNTED;
  private cacheWrite = 0;
  private cacheRead = 0;
  private output = UNCOUNTED;

  /** Takes what `usage` reports, keeping earlier counts it does not repeat. */
  update(usage: unknown): void {
    if (!isRecord(usage)) return;
    const read = (value: unknown, current: number) => (tokenCount(value) === UNCOUNTED ? current : tokenCount(value));
    this.input = read(usage.input_tokens, this.input);
    this.cacheWrite = read(usage.cache_creation_input_tokens, this.cacheWrite);
    this.cacheRead = read(usage.cache_read_input_tokens, this.cacheRead);
    this.output = read(usage.output_tokens, this.output);
  }

  get tokens(): { promptTokens: number; completionTokens: number } {
    const promptTokens = this.input === UNCOUNTED ? UNCOUNTED : this.input + this.cacheWrite + this.cacheRead;
    return { promptTokens, completionTokens: this.output };
  }
}

/** The usage of a whole message. */
export function usageOf(message: Json): { promptTokens: number; completionTokens: number } {
  const usage = new Usage();
  usage.update(message.usage);
  return usage.tokens;
}
