/** The text engine's tasks, as a text worker runs them (engine-worker.ts). */
import { workerData } from 'node:worker_threads';
import { useO200k } from '../domain/engine/text/o200k.ts';
import type { SharedVocabulary } from '../domain/engine/text/vocabulary.ts';

// The tokenizer's tables as the pool's thread built them (workers/engines.ts): shared, not copied. Set
// before the engine is loaded, since some of its modules count tokens as they load.
useO200k((workerData as { vocabulary: SharedVocabulary }).vocabulary);

export const { answerChat, completePrompt, countChatTokens, countTokens } = await import('../domain/engine/text/index.ts');
