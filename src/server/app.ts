/**
 * The reference implementation: a Fastify 5 server whose routes, authentication and request validation
 * all come from the contract (`generated/openapi.json`). `buildApp` makes the server; `main.ts` runs it.
 */
import cors from '@fastify/cors';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { operations, precompile, responseHeaders, validateResponse } from '../contract/index.ts';
import { createAuthenticator } from './auth.ts';
import type { GatewayContext } from './context.ts';
import { registerDashboard } from './dashboard/index.ts';
import { installErrorHandling } from './errors.ts';
import { installFaultHooks } from './fault-hooks.ts';
import { parseFaults } from './faults.ts';
import { seedDemoKeys } from './keys.ts';
import { registerMetaRoutes } from './meta.ts';
import { handlers } from './routes/index.ts';
import { createStore, type ApiKeyRecord, type Store } from './store/index.ts';
import { createRequestValidator } from './validation.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's key; null on a public operation called without one. */
    apiKey: ApiKeyRecord | null;
  }
  interface FastifyContextConfig {
    operationId?: string;
  }
}

/** Largest accepted request body (decision D9). */
export const BODY_LIMIT = 20 * 1024 * 1024;

export interface GatewayOptions {
  /** `'memory'`, or the path of a SQLite file (default `data/gateway.sqlite`). */
  store?: string | Store;
  /** Seed and accept the demo keys `sk-demo-<tier>` (default true). */
  demoKeys?: boolean;
  /** Delay between streamed tokens, for frontends that want to see text arrive (default 0). */
  tokenDelayMs?: number;
  /** Origins allowed by CORS: `true` for any (default), or a list. */
  corsOrigins?: true | string[];
  /** Deliberate faults, for the conformance suite's mutation harness only. */
  faults?: string[];
  /** Fastify's logger option (default: warnings and errors only). */
  logger?: FastifyServerOptions['logger'];
  /** Called for every response that breaks the contract (tests switch this on). */
  onContractViolation?: (violation: { operationId: string; method: string; url: string; status: number; message: string }) => void;
  /** Clock, for tests of the UTC day. */
  now?: () => Date;
  /** The dashboard's admin token; when absent, one is generated (read it from `app.dashboard.adminToken`). */
  adminToken?: string;
}

export async function buildApp(options: GatewayOptions = {}): Promise<FastifyInstance> {
  const faults = parseFaults(options.faults);
  const store = typeof options.store === 'object' ? options.store : createStore(options.store ?? 'data/gateway.sqlite');
  const demoKeys = options.demoKeys ?? true;
  if (demoKeys) seedDemoKeys(store);
  precompile();

  const now = options.now ?? (() => new Date());
  const context: GatewayContext = {
    store,
    auth: createAuthenticator(store, { demoKeys, faults, now }),
    validate: createRequestValidator(faults),
    faults,
    tokenDelayMs: options.tokenDelayMs ?? 0,
    now,
    streams: { active: 0, completed: 0, abandoned: 0 },
  };

  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    logger: options.logger ?? { level: 'warn', redact: ['req.headers["x-api-key"]', 'req.headers.authorization', 'req.headers["x-admin-token"]', 'req.headers.cookie'] },
    // One log line per request would cost throughput and say nothing the client does not see; faults are logged.
    logController: new LogController({ disableRequestLogging: true }),
    // No child logger per request: with redaction on, pino's child() cost ~10% of the model listing's
    // throughput (npm run bench). Faults are logged with their method and URL instead of a request id.
    childLoggerFactory: (logger) => logger,
    return503OnClosing: true,
    forceCloseConnections: true,
  });
  app.decorateRequest('apiKey', null);
  app.decorate('gateway', context);
  app.addHook('onClose', async () => store.close());

  await app.register(cors, {
    origin: options.corsOrigins ?? true,
    allowedHeaders: ['content-type', 'x-api-key', 'authorization', 'accept'],
    // Every response header the contract documents is readable by browser code on another origin. Joined
    // once here: the plugin would join a list again on every request.
    exposedHeaders: [...new Set(operations.flatMap((op) => Object.values(op.responses).flatMap((r) => Object.keys(responseHeaders(r)))))].join(', '),
    maxAge: 600,
  });
  installErrorHandling(app, faults);
  installFaultHooks(app, faults);
  if (options.onContractViolation) installContractCheck(app, options.onContractViolation);

  for (const op of operations) {
    const handler = handlers[op.operationId];
    if (!handler) continue; // an operation of another part (e.g. the dashboard) registers itself
    app.route({
      method: op.method.toUpperCase() as 'GET' | 'POST',
      url: op.path,
      config: { operationId: op.operationId },
      onRequest: async (request) => {
        request.apiKey = context.auth.authenticate(op, request.headers);
      },
      handler: (request, reply) => handler(request, reply, context),
    });
  }
  registerDashboard(app, context, { adminToken: options.adminToken, demoKeys });
  registerMetaRoutes(app, { demoKeys });
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    gateway: GatewayContext;
  }
}

/** In tests, every JSON answer of a contract operation is checked against the contract as it leaves. */
function installContractCheck(app: FastifyInstance, report: NonNullable<GatewayOptions['onContractViolation']>): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const operationId = request.routeOptions.config.operationId;
    if (!operationId || typeof payload !== 'string') return payload;
    const contentType = String(reply.getHeader('content-type') ?? '');
    let body: unknown = payload;
    if (contentType.includes('json')) {
      try {
        body = JSON.parse(payload);
      } catch {
        body = payload;
      }
    }
    const headers = Object.fromEntries(Object.entries(reply.getHeaders()).map(([k, v]) => [k, v === undefined ? undefined : String(v)]));
    const verdict = validateResponse(operationId, { status: reply.statusCode, contentType, headers, body });
    if (!verdict.ok) report({ operationId, method: request.method, url: request.url, status: reply.statusCode, message: verdict.message });
    return payload;
  });
}
