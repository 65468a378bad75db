/**
 * Where each model's answers come from: the one place a model's source is chosen. A model without an upstream
 * is answered by the built-in engines; a model with one, by its upstream, behind the same shapes (a
 * `TextService`, an `ImagePainter`), so that neither the routes nor the image service know which. Counting a
 * request's tokens is always the gateway's tokenizer: what `count_tokens` answers is what the gateway itself
 * counts.
 *
 * Each model's service is made here from its catalogue entry: a model with one upstream and no routing gets
 * that upstream's service itself (nothing stands between, as before decision D40); a model with several, or
 * with routing, gets one service made over theirs by its router (routing/), and nothing above this module
 * knows the difference.
 */
import type { FastifyBaseLogger } from 'fastify';
import { upstreamsOf, type CatalogueEntry, type NamedUpstream } from '../catalogue/catalogue-file.ts';
import type { TextEngine, TextService } from '../context.ts';
import { streamOf } from '../domain/answer-events.ts';
import type { ImageEngine, ImagePainter } from '../domain/images.ts';
import { systemClock, type RoutingClock } from '../routing/clock.ts';
import { UpstreamHealth } from '../routing/health.ts';
import { routingPolicy } from '../routing/policy.ts';
import { routedPainter, routedText } from '../routing/routed-services.ts';
import { UpstreamRouter, type RoutedModelView } from '../routing/router.ts';
import { connectUpstreams } from '../upstream/connections.ts';
import { upstreamPainter } from '../upstream/image-painter.ts';
import { upstreamTextService } from '../upstream/upstream-text.ts';

export interface AnswerSources {
  /** Text for every model of the catalogue, each request answered by its model's source. */
  text: TextService;
  /** The painter of each image model whose pictures are made elsewhere, by the model's id; the image engine paints the others. */
  painters: ReadonlyMap<string, ImagePainter>;
  /** Each routed model's upstreams and their health now, in the catalogue's order. */
  routed(): RoutedModelView[];
  /** Closes the upstreams' connections. */
  close(): Promise<void>;
}

export interface RoutingOptions {
  /** Where each routed request's attempts are logged. */
  log: FastifyBaseLogger;
  /** The routers' time (default: the system's). */
  clock?: RoutingClock;
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
  routing: RoutingOptions,
): AnswerSources {
  const upstreams = connectUpstreams(env);
  const text = new Map<string, TextService>();
  const painters = new Map<string, ImagePainter>();
  const routers: Array<{ view(): RoutedModelView }> = [];
  const clock = routing.clock ?? systemClock;

  /** The model's service: its one upstream's, or its router's over one for each upstream. */
  function serve<S>(entry: CatalogueEntry, named: readonly NamedUpstream[], make: (upstream: NamedUpstream) => S, route: (router: UpstreamRouter<S>) => S): S {
    const policy = routingPolicy(entry);
    if (!policy) return make(named[0]!);
    const routed = named.map((upstream) => ({
      name: upstream.name,
      protocol: upstream.protocol,
      origin: upstreams.connect(upstream).client.origin,
      weight: upstream.weight ?? 1,
      service: make(upstream),
      health: new UpstreamHealth(policy.cooldown),
    }));
    const router = new UpstreamRouter(entry.id, routed, policy, clock, routing.log);
    routers.push(router);
    return route(router);
  }

  for (const entry of entries) {
    const named = upstreamsOf(entry);
    if (named.length === 0) continue;
    if (named[0]!.protocol === 'openai-images') {
      painters.set(entry.id, serve(entry, named, (upstream) => upstreamPainter(entry.id, upstream, upstreams.connect(upstream), engines.images), routedPainter));
    } else {
      text.set(entry.id, serve(entry, named, (upstream) => upstreamTextService(entry.id, upstream, upstreams.connect(upstream), engines.text), (router) => routedText(router, engines.text)));
    }
  }
  return { text: byModel(engineText(engines.text), text), painters, routed: () => routers.map((r) => r.view()), close: () => upstreams.close() };
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
