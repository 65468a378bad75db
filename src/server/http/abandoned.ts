/**
 * A client that goes away before its answer is complete abandons the work done for it: the signal aborts an
 * upstream request on its way (its connection is let go, and the upstream stops making an answer nobody reads).
 */
import type { FastifyReply } from 'fastify';

/**
 * Aborted when the connection closes before the answer was sent whole.
 *
 * @example
 *   const answer = await services.text.answerChat(request, abandonedBy(reply));
 */
export function abandonedBy(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('The client went away before its answer was complete.'));
  });
  return controller.signal;
}
