/**
 * A routed model behind the same shapes as any model (decision D40): its text service and its image painter,
 * each request run by the model's router over the services of its upstreams. A stream is routed until it has
 * begun (the upstream's service hands it over with its first step read), never after.
 */
import type { TextService } from '../context.ts';
import type { ImagePainter } from '../domain/images.ts';
import type { UpstreamRouter } from './router.ts';

/**
 * @example
 *   text.set(entry.id, routedText(router, engineText));
 */
export function routedText(router: UpstreamRouter<TextService>, counter: Pick<TextService, 'countChatTokens'>): TextService {
  return {
    answerChat: async (request, abandoned) => (await router.run(abandoned, (service, scope) => service.answerChat(request, scope))).value,
    async streamChat(request, abandoned, wants) {
      const { value, upstream, scope } = await router.run(abandoned, (service, scope) => service.streamChat(request, scope, wants));
      return Object.assign({}, value, { events: router.watched(value.events, upstream, scope) });
    },
    countChatTokens: (request) => counter.countChatTokens(request),
    completePrompt: async (request, abandoned) => (await router.run(abandoned, (service, scope) => service.completePrompt(request, scope))).value,
  };
}

/**
 * @example
 *   painters.set(entry.id, routedPainter(router));
 */
export function routedPainter(router: UpstreamRouter<ImagePainter>): ImagePainter {
  return {
    generate: async (order, abandoned) => (await router.run(abandoned, (painter, scope) => painter.generate(order, scope))).value,
    edit: async (order, abandoned) => (await router.run(abandoned, (painter, scope) => painter.edit(order, scope))).value,
  };
}
