/**
 * What every operation's handler works with: the state, the domain's services, and the settings that shape
 * answers. Built once by `buildApp`; handlers receive it as their third argument.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Catalogue } from './catalogue/catalogue.ts';
import type { AdminAccess } from './dashboard/access.ts';
import type { ImageService } from './domain/images.ts';
import type { Store } from './domain/store/index.ts';
import type { AnswerStream } from './domain/answer-events.ts';
import type { ChatAnswer, ChatRequest, PromptAnswer, PromptRequest, TextForm } from './domain/chat.ts';
import type { Abandonment } from './domain/abandonment.ts';
import type { RoutedModelView } from './routing/router.ts';

/**
 * Text answers as the routes use them, for any model of the catalogue, whatever its source: the reference's
 * deterministic engine in worker threads (workers/engines.ts), a model's upstream (upstream/upstream-text.ts),
 * chosen per model in sources/answer-sources.ts, or a stand-in with this shape. `abandoned` aborts the work of
 * a client that went away (an upstream request); the engine's, bounded, runs to its end.
 */
export interface TextService {
  answerChat(request: ChatRequest, abandoned?: Abandonment): Promise<ChatAnswer>;
  /** The answer as it is made, once it has begun (a refusal before that is an error, not a stream). */
  streamChat(request: ChatRequest, abandoned?: Abandonment, wants?: StreamWants): Promise<AnswerStream>;
  /** The prompt tokens `answerChat` would bill for the same request. */
  countChatTokens(request: ChatRequest): Promise<number>;
  completePrompt(request: PromptRequest, abandoned?: Abandonment): Promise<PromptAnswer>;
}

/** What a stream is to tell before its first step, beyond the steps themselves. */
export interface StreamWants {
  /**
   * Its prompt tokens (`AnswerStream.promptTokens`), for a client protocol whose stream says them first
   * (Anthropic's `message_start`): a source that learns them only at the answer's end counts them itself,
   * while the answer begins.
   */
  promptTokens?: boolean;
}

/**
 * The built-in engine as the services use it: its answers, and the gateway's tokenizer, which also counts what
 * an upstream does not report.
 */
export interface TextEngine {
  /** `form`: the text token by token (`pieces`, the default: for a stream) or in one piece (`whole`). */
  answerChat(request: ChatRequest, form?: TextForm): Promise<ChatAnswer>;
  countChatTokens(request: ChatRequest): Promise<number>;
  completePrompt(request: PromptRequest): Promise<PromptAnswer>;
  /** The tokens of a text, as an answer's are counted. */
  countTokens(text: string): Promise<number>;
}

/** The domain services behind the operations; `buildApp({ services })` may wrap or replace them. */
export interface Services {
  text: TextService;
  images: ImageService;
}

export interface AppContext {
  store: Store;
  /** The models served, and the rules on the model a request names. */
  catalogue: Catalogue;
  services: Services;
  /** The clock: `created` timestamps, the UTC day of quotas, session expiry. */
  now: () => Date;
  /** Milliseconds between streamed events (0: as fast as the client reads). */
  tokenDelayMs: number;
  /** Whether the demo keys are accepted; when not, the dashboard neither lists nor revokes them. */
  demoKeys: boolean;
  /** The dashboard's admin token, its sign-in sessions and the throttle on wrong tokens. */
  admin: AdminAccess;
  /** Each model routed between upstreams, with their health now (decision D40): the admin API's view. */
  upstreams: () => RoutedModelView[];
}

/**
 * The handler of one operation; authentication and request validation have already passed. It sends the
 * answer and returns the reply, or a promise of it (Fastify waits for a reply it is given back to be sent).
 */
export type Handler = (request: FastifyRequest, reply: FastifyReply, app: AppContext) => FastifyReply | Promise<unknown>;
