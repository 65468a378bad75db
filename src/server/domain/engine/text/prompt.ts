/**
 * The text completion of `POST /v1/generation/prompt`: a continuation of one prompt, cut to `max_tokens`.
 */
import { Rng } from '../../../../lib/random.ts';
import type { PromptAnswer, PromptRequest } from '../../chat.ts';
import { composeContinuation } from './compose.ts';
import { seedsOf } from './seed.ts';
import { analyseSubject } from './subject.ts';
import { countTokens, limitTokens } from './tokens.ts';

/**
 * Continues a prompt, deterministically for a given request and seed.
 *
 * @example
 * completePrompt({ model: 'gpt-4o-mini', prompt: 'Write a haiku about the sea.' });
 * // { text: "\n\nHere's a haiku about the sea: …", finishReason: 'stop', … }
 */
export function completePrompt(request: PromptRequest): PromptAnswer {
  const seeds = seedsOf({ content: { model: request.model, prompt: request.prompt }, temperature: request.temperature, seed: request.seed });
  const subject = analyseSubject(request.prompt);
  const limited = limitTokens(composeContinuation(request.prompt, subject, new Rng(seeds.text)), request.maxTokens ?? null, 'whole');
  return {
    text: limited.text,
    finishReason: limited.truncated ? 'length' : 'stop',
    promptTokens: countTokens(request.prompt),
    completionTokens: limited.tokenCount,
  };
}
