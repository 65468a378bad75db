/**
 * What every text upstream protocol module offers: the gateway's chat request in the upstream's terms, and
 * the upstream's answer (whole, or as a stream of events) back in the gateway's. The modules are pure: the
 * HTTP client sends `path` and `body` and hands back what it received.
 */
import type { AnswerEvent } from '../../domain/answer-events.ts';
import type { ChatAnswer, ChatRequest } from '../../domain/chat.ts';

/** A request for the upstream: `path` is joined to the catalogue's `base_url`, `body` is sent as JSON. */
export interface UpstreamRequest {
  path: string;
  body: Record<string, unknown>;
}

/** One server-sent event as the project's reader (`readEvents`) yields it. */
export interface UpstreamEvent {
  event?: string;
  data: string;
}

export interface UpstreamProtocol {
  toUpstream(request: ChatRequest, model: string, stream: boolean): UpstreamRequest;
  fromUpstream(json: unknown): ChatAnswer;
  eventsFrom(events: AsyncIterable<UpstreamEvent>): AsyncGenerator<AnswerEvent>;
}
