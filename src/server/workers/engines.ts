/**
 * The engines as the services use them, each behind its pool of worker threads (pool.ts): the text engine's
 * answers and the image engine's pictures come back as promises, and the event loop only sends the request
 * and receives the result.
 */
import { availableParallelism } from 'node:os';
// sharp is loaded by the main thread too, so its native libraries stay loaded while image workers come and
// go (on glibc, unloading them with the last worker that used them crashes the process).
import 'sharp';
import type { TextEngine } from '../context.ts';
import type { ChatAnswer, PromptAnswer } from '../domain/engine/text/index.ts';
import { shareO200k } from '../domain/engine/text/o200k.ts';
import type { PreparedEdit } from '../domain/engine/images/index.ts';
import type { ImageEngine } from '../domain/images.ts';
import { WorkerPool, type PoolSize } from './pool.ts';

export interface WorkerSettings {
  text: PoolSize;
  images: PoolSize;
}

/**
 * The default sizes: one worker per core for each engine. A waiting place costs only the request already
 * received; the bound is on waiting time. Text tasks take about a millisecond, so many may wait: 1,024 a
 * core is half a second of work, and lets a thousand clients that open their streams at the same moment
 * all be served (`npm run bench`; 256 refused most of them). An image task takes from a few milliseconds
 * (one small picture) to a second or more (ten large edits), so fewer wait.
 */
export function defaultWorkerSettings(cores = availableParallelism()): WorkerSettings {
  return { text: { workers: cores, queue: 1024 * cores }, images: { workers: cores, queue: 16 * cores } };
}

export interface Engines {
  text: TextEngine;
  images: ImageEngine;
  /** Lets running tasks finish, then stops the workers. */
  close(): Promise<void>;
}

/**
 * @example
 * const engines = startEngines(defaultWorkerSettings());
 * const answer = await engines.text.answerChat({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] });
 * await engines.close();
 */
export function startEngines(settings: WorkerSettings): Engines {
  // One copy of the tokenizer's tables for every text worker (text-tasks.ts reads it).
  const text = new WorkerPool('text', settings.text, () => ({ vocabulary: shareO200k() }));
  const images = new WorkerPool('images', settings.images);
  // PNGs cross the thread boundary as Uint8Arrays; the server answers with Buffers (no copy: a view).
  const asBuffers = (pngs: Uint8Array[]) => pngs.map((png) => Buffer.from(png.buffer, png.byteOffset, png.byteLength));
  return {
    text: {
      answerChat: (request) => text.run<ChatAnswer>('answerChat', [request]),
      countChatTokens: (request) => text.run<number>('countChatTokens', [request]),
      completePrompt: (request) => text.run<PromptAnswer>('completePrompt', [request]),
      countTokens: (value) => text.run<number>('countTokens', [value]),
    },
    images: {
      generate: (request) => images.run<Uint8Array[]>('generate', [request]).then(asBuffers),
      edit: (request) => images.run<Uint8Array[]>('edit', [request]).then(asBuffers),
      prepareEdit: (request) => images.run<{ image: Uint8Array; mask?: Uint8Array }>('prepareEdit', [request]).then(preparedBuffers),
    },
    close: async () => {
      await Promise.all([text.close(), images.close()]);
    },
  };
}

/** A prepared edit's PNGs as Buffers again, after they crossed the thread boundary (no copy: views). */
function preparedBuffers({ image, mask }: { image: Uint8Array; mask?: Uint8Array }): PreparedEdit {
  const view = (png: Uint8Array) => Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  return { image: view(image), ...(mask !== undefined && { mask: view(mask) }) };
}
