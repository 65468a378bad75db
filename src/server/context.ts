/**
 * What every operation's handler works with: the state, the domain's services, and the settings that shape
 * answers. Built once by `buildApp`; handlers receive it as their third argument.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AdminAccess } from './dashboard/access.ts';
import type { ImageService } from './domain/images.ts';
import type { Store } from './domain/store/index.ts';
import type { ChatAnswer, ChatRequest, PromptAnswer, PromptRequest } from './domain/engine/text/index.ts';

/**
 * The text engine as the routes use it: the reference's deterministic one in worker threads
 * (workers/engines.ts), or a stand-in with its shape.
 */
export interface TextService {
  answerChat(request: ChatRequest): Promise<ChatAnswer>;
  /** The prompt tokens `answerChat` would bill for the same request. */
  countChatTokens(request: ChatRequest): Promise<number>;
  completePrompt(request: PromptRequest): Promise<PromptAnswer>;
}

/** The domain services behind the operations; `buildApp({ services })` may wrap or replace them. */
export interface Services {
  text: TextService;
  images: ImageService;
}

export interface AppContext {
  store: Store;
  services: Services;
  /** The clock: `created` timestamps, the UTC day of quotas, session expiry. */
  now: () => Date;
  /** Milliseconds between streamed events (0: as fast as the client reads). */
  tokenDelayMs: number;
  /** Whether the demo keys are accepted; when not, the dashboard neither lists nor revokes them. */
  demoKeys: boolean;
  /** The dashboard's admin token, its sign-in sessions and the throttle on wrong tokens. */
  admin: AdminAccess;
}

/** The handler of one operation; authentication and request validation have already passed. */
export type Handler = (request: FastifyRequest, reply: FastifyReply, app: AppContext) => Promise<unknown>;
