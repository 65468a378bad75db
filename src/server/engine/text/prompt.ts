/**
 * The text completion of `POST /v1/generation/prompt`: a continuation of one prompt, cut to `max_tokens`.
 */
import { composeContinuation } from './compose.ts';
import { canonicalDigest, Rng, type CanonicalDigest } from './random.ts';
import { seedMaterial, STREAM, type SeedMaterial } from './request-seed.ts';
import { analyseSubject } from './subject.ts';
import { countTokens, limitTokens } from './tokens.ts';

export interface PromptRequest {
  model: string;
  prompt: string;
  temperature?: number | null;
  seed?: number | null;
  maxTokens?: number | null;
}

export interface PromptAnswer {
  text: string;
  /** Pieces, one per token, that concatenate to exactly `text`. */
  pieces: string[];
  finishReason: 'stop' | 'length';
  promptTokens: number;
  completionTokens: number;
}

/** What a prompt answer's seed is made of, hashed once per request (the memo's key too; see index.ts). */
export interface PromptSeed {
  material: SeedMaterial;
  text: CanonicalDigest;
}

/**
 * @example
 * promptSeed({ model: 'gpt-4o-mini', prompt: 'Once upon a time' }).text.hash; // a 53-bit number
 */
export function promptSeed(request: PromptRequest): PromptSeed {
  const material = seedMaterial({ content: { model: request.model, prompt: request.prompt }, temperature: request.temperature, seed: request.seed });
  return { material, text: canonicalDigest(material, STREAM.text) };
}

/**
 * Continues a prompt, deterministically for a given request and seed.
 *
 * @example
 * completePrompt({ model: 'gpt-4o-mini', prompt: 'Write a haiku about the sea.' });
 * // { text: "\n\nHere's a haiku about the sea: …", finishReason: 'stop', … }
 */
export function completePrompt(request: PromptRequest, seed: PromptSeed = promptSeed(request)): PromptAnswer {
  const subject = analyseSubject(request.prompt);
  const rng = new Rng(seed.text.hash);
  const limited = limitTokens(composeContinuation(request.prompt, subject, rng), request.maxTokens ?? null);
  return {
    text: limited.text,
    pieces: limited.pieces,
    finishReason: limited.truncated ? 'length' : 'stop',
    promptTokens: countTokens(request.prompt),
    completionTokens: limited.tokenCount,
  };
}
