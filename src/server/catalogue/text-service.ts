/**
 * The text service the routes use: each request answered by its model's source, the built-in engine or the
 * model's upstream, by the model's id. Counting a request's tokens is always the gateway's tokenizer: what
 * `count_tokens` answers is what the gateway itself counts.
 */
import type { TextEngine, TextService } from '../context.ts';
import { streamOf } from '../domain/answer-events.ts';

/**
 * @example
 *   const text = catalogueTextService(engines.text, new Map([['gpt-4o', upstreamTextService(…)]]));
 */
export function catalogueTextService(engine: TextEngine, upstreams: ReadonlyMap<string, TextService>): TextService {
  const builtIn: TextService = {
    // An answer sent at once needs no token pieces; a stream is sent piece by piece.
    answerChat: (request) => engine.answerChat(request, 'whole'),
    // The engine's answer is made whole, then sent as a stream.
    streamChat: async (request) => streamOf(await engine.answerChat(request, 'pieces')),
    countChatTokens: (request) => engine.countChatTokens(request),
    completePrompt: (request) => engine.completePrompt(request),
  };
  if (upstreams.size === 0) return builtIn;
  const sourceOf = (model: string) => upstreams.get(model) ?? builtIn;
  return {
    answerChat: (request, abandoned) => sourceOf(request.model).answerChat(request, abandoned),
    streamChat: (request, abandoned) => sourceOf(request.model).streamChat(request, abandoned),
    countChatTokens: (request) => engine.countChatTokens(request),
    completePrompt: (request, abandoned) => sourceOf(request.model).completePrompt(request, abandoned),
  };
}
