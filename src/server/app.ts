/**
 * The reference implementation: a Fastify 5 server whose routes, authentication and request validation all
 * come from the descriptions it serves (the public contract and its own admin API). `buildApp` makes the
 * server; `main.ts` runs it. docs/architecture.md draws a request's way through it.
 */
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { contract } from '../contract/index.ts';
import { builtInEntries, createCatalogue } from './catalogue/catalogue.ts';
import type { CatalogueEntry } from './catalogue/catalogue-file.ts';
import type { AppContext, Services } from './context.ts';
import { adminCredentials } from './dashboard/access.ts';
import { adminApi } from './dashboard/admin-api.ts';
import { checkAdminToken, generateAdminToken } from './dashboard/admin-token.ts';
import { registerDashboardPage } from './dashboard/pages.ts';
import { createSignInThrottle } from './dashboard/sign-in-throttle.ts';
import { createSessions } from './domain/sessions.ts';
import { createImageService } from './domain/images.ts';
import { createKeyVerifier, seedDemoKeys } from './domain/keys.ts';
import { createImageQuota } from './domain/quota.ts';
import { createStore, type Store } from './domain/store/index.ts';
import { apiKeyCredentials } from './http/auth.ts';
import { clientErrorHandler, frameworkErrors } from './http/client-errors.ts';
import { registerCors } from './http/cors.ts';
import { installErrorHandling } from './http/error-handler.ts';
import { bodyLimits } from './http/json-structure.ts';
import { defaultLogOptions, logTo, serverLogger, type LogOptions } from './http/logger.ts';
import { registerFavicon } from './http/favicon.ts';
import { addSecurityHeaders } from './http/security-headers.ts';
import { refuseWhileClosing } from './http/shutdown.ts';
import { defaultTimeouts, serverTimeouts, type Timeouts } from './http/timeouts.ts';
import { registerPages } from './http/pages.ts';
import { registerOperations } from './http/pipeline.ts';
import { handlers } from './routes/index.ts';
import type { RoutingClock } from './routing/clock.ts';
import { answerSources } from './sources/answer-sources.ts';
import { defaultWorkerSettings, startEngines, type WorkerSettings } from './workers/engines.ts';

/** Largest request line and headers together (Node's default), answered 431 beyond. */
const MAX_HEADER_BYTES = 16 * 1024;

export interface GatewayOptions {
  /**
   * `'memory'`, a `postgres://` URL, the path of a SQLite file (default `data/gateway.sqlite`), or a store of
   * your own. The app closes it when it closes.
   */
  store?: string | Store;
  /** Connections at most to PostgreSQL (default 10). */
  databasePoolSize?: number;
  /**
   * The domain services, given the ones built from the store: return them as they are, wrapped (to observe
   * or change what they do), or replaced (another text or image engine behind the same contract).
   */
  services?: (built: Services) => Services;
  /** Seed and accept the demo keys `sk-demo-<tier>` (default true). */
  demoKeys?: boolean;
  /** Delay between streamed events, for frontends that want to see text arrive (default 0). */
  tokenDelayMs?: number;
  /** Origins allowed by CORS: `true` for any (default), or a list. */
  corsOrigins?: true | string[];
  /** The server's log: `false` for none, or pino's options and a stream (default: warnings and errors, to standard output). */
  logger?: false | LogOptions;
  /** The clock (default: the system's): `created` timestamps, the UTC day of quotas, session expiry. */
  now?: () => Date;
  /** The dashboard's admin token; when absent, one is generated (read it from `app.dashboard.adminToken`). */
  adminToken?: string;
  /** Worker threads and waiting places for the text and image engines (default: one worker per core each). */
  workers?: Partial<WorkerSettings>;
  /** Time limits on receiving requests and on idle connections (decision D25; defaults in http/timeouts.ts). */
  timeouts?: Partial<Timeouts>;
  /**
   * The models served and where each one's answers come from (`readCatalogueFile`'s entries); default: the
   * contract's listing example, every model answered by the built-in engine.
   */
  catalogue?: readonly CatalogueEntry[];
  /** Where the upstreams' keys are read (`api_key_env`); default `process.env`. */
  environment?: Record<string, string | undefined>;
  /** The time of the routers of models with several upstreams: cool-downs, rests and waits (default: the system's). */
  routingClock?: RoutingClock;
}

export interface DashboardInfo {
  /** Where the page is served. */
  path: '/dashboard';
  adminToken: string;
  /** True when no token was configured and this one was made at start-up (so it should be printed). */
  adminTokenGenerated: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    dashboard: DashboardInfo;
  }
}

export async function buildApp(options: GatewayOptions = {}): Promise<FastifyInstance> {
  const timeouts = { ...defaultTimeouts, ...options.timeouts };
  const { http, ...limits } = serverTimeouts(timeouts);
  const app = Fastify({
    bodyLimit: bodyLimits.bytes,
    // Fastify's own logger costs every request work that only its request logging uses: the server's is put on
    // the app and each request instead (http/logger.ts).
    logger: false,
    // No line per request, whichever logger reads them (Fastify's request-logging lines are this controller's).
    logController: new LogController({ disableRequestLogging: true }),
    ...limits,
    http: { ...http, maxHeaderSize: MAX_HEADER_BYTES },
    clientErrorHandler: clientErrorHandler(timeouts, MAX_HEADER_BYTES),
    frameworkErrors,
    // Closing is graceful (http/shutdown.ts): idle connections are closed at once, running requests finish,
    // and requests still arriving get the contract's 503 rather than Fastify's own body.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
  });
  // First, before any other hook: every request's logger is the server's from its first hook on.
  const log = serverLogger(options.logger ?? defaultLogOptions);
  logTo(app, log);

  const store =
    typeof options.store === 'object'
      ? options.store
      : await createStore(options.store ?? 'data/gateway.sqlite', { poolSize: options.databasePoolSize, warn: (message) => log.warn(message) });
  const demoKeys = options.demoKeys ?? true;
  const now = options.now ?? (() => new Date());
  const configuredToken = options.adminToken?.trim() || undefined;
  const admin = {
    token: configuredToken === undefined ? generateAdminToken() : checkAdminToken(configuredToken),
    sessions: createSessions(store, now),
    throttle: createSignInThrottle(now),
  };
  try {
    if (demoKeys) await seedDemoKeys(store);
  } catch (error) {
    await store.close();
    throw error;
  }

  const engines = startEngines({ ...defaultWorkerSettings(), ...options.workers });
  const entries = options.catalogue ?? builtInEntries();
  const sources = answerSources(entries, engines, options.environment ?? process.env, { log, ...(options.routingClock && { clock: options.routingClock }) });
  const built: Services = {
    text: sources.text,
    images: createImageService(engines.images, createImageQuota(store, now), sources.painters),
  };
  const context: AppContext = {
    store,
    catalogue: createCatalogue(entries),
    services: options.services ? options.services(built) : built,
    now,
    tokenDelayMs: options.tokenDelayMs ?? 0,
    demoKeys,
    admin,
    upstreams: sources.routed,
  };
  const credentials = { ...apiKeyCredentials(createKeyVerifier(store, { demoKeys, now })), ...adminCredentials(admin) };

  app.decorate('dashboard', { path: '/dashboard', adminToken: admin.token, adminTokenGenerated: !configuredToken } satisfies DashboardInfo);
  app.addHook('onClose', async () => {
    await sources.close();
    await engines.close();
    await store.close();
  });

  // Security headers first, so that every answer has them, preflights and the refusals below included.
  addSecurityHeaders(app);
  registerCors(app, { origins: options.corsOrigins ?? true });
  refuseWhileClosing(app);
  installErrorHandling(app);
  registerFavicon(app);
  registerOperations(app, { contracts: [contract, adminApi], handlers, credentials, context });
  registerDashboardPage(app, credentials);
  registerPages(
    app,
    [
      { contract, specPath: '/openapi.json', docsPath: '/docs', docsFile: 'dist/docs/index.html' },
      { contract: adminApi, specPath: '/dashboard/api/openapi.json', docsPath: '/docs/admin', docsFile: 'dist/docs/admin.html' },
    ],
    { demoKeys },
  );
  return app;
}
