/**
 * The text completion of `POST /v1/generation/prompt`: a continuation of one prompt, cut to `max_tokens`.
 */
import { AnswerText } from './answer-text.ts';
import { composeContinuation } from './compose.ts';
import { Rng } from './random.ts';
import { requestSeed, type RequestSeed } from './request-seed.ts';
import { analyseSubject } from './subject.ts';
import { countTokens, limitTokens, type TokenText } from './tokens.ts';

export interface PromptRequest {
  model: string;
  prompt: string;
  temperature?: number | null;
  seed?: number | null;
  maxTokens?: number | null;
}

export interface PromptAnswer {
  text: string;
  /** Pieces, one per token, that concatenate to exactly `text`; made when first read (see `limitTokens`). */
  readonly pieces: readonly string[];
  finishReason: 'stop' | 'length';
  promptTokens: number;
  completionTokens: number;
}

/**
 * What shapes a prompt's continuation, hashed once per request (see request-seed.ts).
 *
 * @example
 * promptSeed({ model: 'gpt-4o-mini', prompt: 'Once upon a time' }).text.hash; // a 53-bit number
 */
export function promptSeed(request: PromptRequest): RequestSeed {
  return requestSeed({ content: { model: request.model, prompt: request.prompt }, temperature: request.temperature, seed: request.seed });
}

/**
 * Continues a prompt, deterministically for a given request and seed.
 *
 * @example
 * completePrompt({ model: 'gpt-4o-mini', prompt: 'Write a haiku about the sea.' });
 * // { text: "\n\nHere's a haiku about the sea: …", finishReason: 'stop', … }
 */
export function completePrompt(request: PromptRequest, seed: RequestSeed = promptSeed(request)): PromptAnswer {
  const subject = analyseSubject(request.prompt);
  const rng = new Rng(seed.text.hash);
  const limited = limitTokens(composeContinuation(request.prompt, subject, rng), request.maxTokens ?? null);
  return new Continuation(limited, countTokens(request.prompt));
}

/** A continuation, whose pieces are made when first read (see answer-text.ts). */
class Continuation extends AnswerText implements PromptAnswer {
  readonly text: string;

  constructor(text: TokenText, promptTokens: number) {
    super(text, promptTokens);
    this.text = text.text;
  }

  get pieces(): readonly string[] {
    return this.tokenPieces();
  }
}
