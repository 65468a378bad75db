/**
 * Where each model's answers come from: the one place a model's source is chosen. A model without an upstream
 * is answered by the built-in engines; a model with one, by its upstream, behind the same shapes (a
 * `TextService`, an `ImagePainter`), so that neither the routes nor the image service know which. Counting a
 * request's tokens is always the gateway's tokenizer: what `count_tokens` answers is what the gateway itself
 * counts.
 *
 * Each model's service is made here from its catalogue entry, one source per model: a model answered by
 * several upstreams (fallbacks, retries, weights) would get here one service made over theirs, and nothing
 * above this module would change.
 */
import type { CatalogueEntry } from '../catalogue/catalogue-file.ts';
import type { TextEngine, TextService } from '../context.ts';
import { streamOf } from '../domain/answer-events.ts';
import type { ImageEngine, ImagePainter } from '../domain/images.ts';
import { connectUpstreams } from '../upstream/connections.ts';
import { upstreamPainter } from '../upstream/image-painter.ts';
import { upstreamTextService } from '../upstream/upstream-text.ts';

export interface AnswerSources {
  /** Text for every model of the catalogue, each request answered by its model's source. */
  text: TextService;
  /** The painter of each image model whose pictures are made elsewhere, by the model's id; the image engine paints the others. */
  painters: ReadonlyMap<string, ImagePainter>;
  /** Closes the upstreams' connections. */
  close(): Promise<void>;
}

/**
 * @example
 *   const sources = answerSources(readCatalogueFile(path, process.env), engines, process.env);
 *   const answer = await sources.text.answerChat(request);
 */
export function answerSources(
  entries: readonly CatalogueEntry[],
  engines: { text: TextEngine; images: ImageEngine },
  env: Record<string, string | undefined>,
): AnswerSources {
  const upstreams = connectUpstreams(env);
  const text = new Map<string, TextService>();
  const painters = new Map<string, ImagePainter>();
  for (const entry of entries) {
    const upstream = entry.upstream;
    if (!upstream) continue;
    const connection = upstreams.connect(upstream);
    if (upstream.protocol === 'openai-images') painters.set(entry.id, upstreamPainter(entry.id, upstream, connection, engines.images));
    else text.set(entry.id, upstreamTextService(entry.id, upstream, connection, engines.text));
  }
  return { text: byModel(engineText(engines.text), text), painters, close: () => upstreams.close() };
}

/** The built-in engine as a model's source. */
function engineText(engine: TextEngine): TextService {
  return {
    // An answer sent at once needs no token pieces; a stream is sent piece by piece.
    answerChat: (request) => engine.answerChat(request, 'whole'),
    // The engine's answer is made whole, then sent as a stream: its prompt tokens are known before its first step.
    streamChat: async (request) => streamOf(await engine.answerChat(request, 'pieces')),
    countChatTokens: (request) => engine.countChatTokens(request),
    completePrompt: (request) => engine.completePrompt(request),
  };
}

/** Each request answered by the service of its model (`services`, by id), or by the built-in engine's. */
function byModel(builtIn: TextService, services: ReadonlyMap<string, TextService>): TextService {
  if (services.size === 0) return builtIn;
  const sourceOf = (model: string) => services.get(model) ?? builtIn;
  return {
    answerChat: (request, abandoned) => sourceOf(request.model).answerChat(request, abandoned),
    streamChat: (request, abandoned, wants) => sourceOf(request.model).streamChat(request, abandoned, wants),
    countChatTokens: (request) => builtIn.countChatTokens(request),
    completePrompt: (request, abandoned) => sourceOf(request.model).completePrompt(request, abandoned),
  };
}
