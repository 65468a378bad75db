/** What every route handler gets: the store, the validators, the options and the faults switched on. */
import type { Authenticator } from './auth.ts';
import type { Faults } from './faults.ts';
import type { Store } from './store/index.ts';
import type { RequestValidator } from './validation.ts';

export interface GatewayContext {
  store: Store;
  auth: Authenticator;
  validate: RequestValidator;
  faults: Faults;
  /** Milliseconds between streamed tokens (0: as fast as possible). */
  tokenDelayMs: number;
  now: () => Date;
  /** Streams under way and how the finished ones ended (a stream whose client left stops early). */
  streams: { active: number; completed: number; abandoned: number };
}
