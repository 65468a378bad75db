/**
 * The engines as the services use them, each behind its pool of worker threads (pool.ts): the text engine's
 * answers and the image engine's pictures come back as promises, and the event loop only sends the request
 * and receives the result.
 *
 * Text work that is small and bounded runs on the event loop itself: a short conversation without tools
 * costs the engine less than handing it to a worker and back (the request and the answer copied across two
 * threads, both woken). Only work that can be long goes to the pool: text beyond `INLINE_TEXT` (the engine's
 * work grows with the prompt), and anything with a schema to satisfy (tools, structured output), whose cost
 * the schema decides. A full text pool still refuses every
 * text request (503): the machine is then saturated with text work, and small requests are shed with the
 * rest rather than added to the event loop's.
 */
import { availableParallelism } from 'node:os';
// sharp is loaded by the main thread too, so its native libraries stay loaded while image workers come and
// go (on glibc, unloading them with the last worker that used them crashes the process).
import 'sharp';
import type { TextEngine } from '../context.ts';
import * as textEngine from '../domain/engine/text/index.ts';
import type { ChatAnswer, ChatRequest, PromptAnswer, PromptRequest } from '../domain/chat.ts';
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
 * received; the bound is on waiting time. Text tasks are short, so many may wait: 1,024 a core lets a
 * thousand clients that open their streams at the same moment all be served. An image task takes from a
 * few milliseconds (one small picture) to a second or more (ten large edits), so fewer wait.
 */
export function defaultWorkerSettings(cores = availableParallelism()): WorkerSettings {
  return { text: { workers: cores, queue: 1024 * cores }, images: { workers: cores, queue: 16 * cores } };
}

/**
 * The most text work answered on the event loop: characters of text, and JSON values walked to count them
 * (so that the count itself is bounded, however the request is shaped): some 250 tokens, which cost the engine
 * less than a worker's hand-off; a request beyond either bound goes to the pool.
 */
export const INLINE_TEXT = { characters: 1024, values: 256 } as const;

/**
 * Whether `values` hold at most `INLINE_TEXT.characters` of text in at most `INLINE_TEXT.values` JSON
 * values. The walk stops as soon as either bound is passed: a few hundred steps at most (an object's members
 * are listed before they are counted, as JSON.parse made them).
 */
function smallText(...values: unknown[]): boolean {
  let characters = 0;
  let walked = values.length;
  const stack = values;
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      characters += value.length;
      if (characters > INLINE_TEXT.characters) return false;
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    const members = Array.isArray(value) ? (value as unknown[]) : Object.values(value);
    walked += members.length;
    if (walked > INLINE_TEXT.values) return false;
    for (const member of members) stack.push(member);
  }
  return true;
}

/** A chat request whose answer the event loop makes: short text, no tools, no schema for the answer. */
function inlineChat(request: ChatRequest): boolean {
  return (request.tools ?? []).length === 0 && request.responseFormat?.type !== 'json_schema' && smallText(request.messages, request.stopSequences);
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
  // One copy of the tokenizer's tables for every text worker (text-tasks.ts reads it), and for the event
  // loop's own small tasks.
  const text = new WorkerPool('text', settings.text, () => ({ vocabulary: shareO200k() }));
  const images = new WorkerPool('images', settings.images);
  // PNGs cross the thread boundary as Uint8Arrays; the server answers with Buffers (no copy: a view).
  const asBuffers = (pngs: Uint8Array[]) => pngs.map((png) => Buffer.from(png.buffer, png.byteOffset, png.byteLength));
  // As a promise either way, the engine's errors as rejections.
  const here = async <T>(task: () => T): Promise<T> => task();
  return {
    text: {
      answerChat: (request, form) => (inlineChat(request) && !text.full ? here(() => textEngine.answerChat(request, form)) : text.run<ChatAnswer>('answerChat', [request, form])),
      countChatTokens: (request) => (inlineChat(request) && !text.full ? here(() => textEngine.countChatTokens(request)) : text.run<number>('countChatTokens', [request])),
      completePrompt: (request: PromptRequest) =>
        smallText(request.prompt) && !text.full ? here(() => textEngine.completePrompt(request)) : text.run<PromptAnswer>('completePrompt', [request]),
      countTokens: (value) => (smallText(value) && !text.full ? here(() => textEngine.countTokens(value)) : text.run<number>('countTokens', [value])),
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
