/**
 * The o200k_base encoding (the gpt-4o family's), one vocabulary per process. The thread that starts the text
 * workers builds it once from the encoding's tiktoken file and hands its shared buffers to each worker
 * (workers/engine-worker.ts calls `useO200k`); a thread given none (a test, a script) builds its own on first use.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { BytePairEncoder } from './byte-pair.ts';
import { buildVocabulary, Vocabulary, type SharedVocabulary } from './vocabulary.ts';

/**
 * Merged chunks kept per thread. A chunk that is itself a token needs no cache; these are the longer words,
 * and twenty thousand of them (a few MB) cover a long conversation's vocabulary.
 */
const MERGE_CACHE_SIZE = 20_000;

let shared: SharedVocabulary | undefined;
let current: { encoder: BytePairEncoder; vocabulary: Vocabulary } | undefined;

/** The process's vocabulary buffers, built on first call: give them to the workers that tokenize. */
export function shareO200k(): SharedVocabulary {
  return (shared ??= load());
}

/** Makes this thread read the buffers another thread built, instead of building its own. */
export function useO200k(given: SharedVocabulary): void {
  if (shared && shared !== given) throw new Error('this thread already has an o200k vocabulary');
  shared = given;
}

/** This thread's encoder and the vocabulary it reads. */
export function o200k(): { encoder: BytePairEncoder; vocabulary: Vocabulary } {
  if (!current) {
    const vocabulary = new Vocabulary(shareO200k());
    current = { vocabulary, encoder: new BytePairEncoder(vocabulary, O200K_TOKEN_SPLIT_REGEX, MERGE_CACHE_SIZE) };
  }
  return current;
}

function load(): SharedVocabulary {
  // tiktoken's own file of the encoding, as gpt-tokenizer ships it.
  const path = createRequire(import.meta.url).resolve('gpt-tokenizer/data/o200k_base.tiktoken');
  return buildVocabulary(readFileSync(path));
}
