/**
 * A client that goes away before its answer is complete abandons the work done for it: the signal aborts an
 * upstream request on its way (its connection is let go, and the upstream stops making an answer nobody reads).
 * The same object carries a routed model's account of its upstreams to the answer's headers (D40).
 *
 * The signal is made when a service first reads it, not for every request: the built-in engine's work is
 * bounded and never reads it, and an AbortController with its `close` listener would cost every answer.
 */
import type { FastifyReply } from 'fastify';
import type { Abandonment, UpstreamRoute } from '../domain/abandonment.ts';

const gone = () => new Error('The client went away before its answer was complete.');

/**
 * @example
 *   const answer = await services.text.answerChat(request, abandonedBy(reply));
 */
export function abandonedBy(reply: FastifyReply): Abandonment {
  return new ReplyAbandonment(reply);
}

/**
 * A class, not an object literal with a getter: V8 keeps such a literal's getter in an accessor pair it
 * allocates in the old generation, so the getter's closure, and through it the whole request (reply, request,
 * headers, body), would outlive every young collection until the next full one. A getter on a prototype holds
 * nothing of any one request.
 */
class ReplyAbandonment implements Abandonment {
  #signal: AbortSignal | undefined;
  constructor(private readonly reply: FastifyReply) {}

  get signal(): AbortSignal {
    return (this.#signal ??= watch(this.reply));
  }

  routed(route: UpstreamRoute): void {
    if (route.upstream !== undefined) this.reply.header('x-gateway-upstream', route.upstream);
    this.reply.header('x-gateway-attempts', String(route.attempts));
  }
}

function watch(reply: FastifyReply): AbortSignal {
  const response = reply.raw;
  // Read after the client left (its connection closed while the service waited): aborted already.
  if (response.destroyed && !response.writableFinished) return AbortSignal.abort(gone());
  const controller = new AbortController();
  response.once('close', () => {
    if (!response.writableFinished) controller.abort(gone());
  });
  return controller.signal;
}
