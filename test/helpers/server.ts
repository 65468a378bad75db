/**
 * Starts the reference server on 127.0.0.1 and a free port for a test, with every JSON answer of a
 * contract operation checked against the contract on its way out: `close()` fails the test if any answer
 * broke it. The check is an `onSend` hook added from here, to the app `buildApp` returns: the server itself
 * does not know it is being tested.
 *
 * @example
 *   const server = await startServer();
 *   const res = await fetch(`${server.baseUrl}/v1/models`);
 *   await server.close();
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { contract } from '../../src/contract/index.ts';
import { buildApp, type GatewayOptions } from '../../src/server/app.ts';
import { adminApi } from '../../src/server/dashboard/admin-api.ts';

export interface TestServer {
  baseUrl: string;
  app: Awaited<ReturnType<typeof buildApp>>;
  /** Contract violations seen so far. */
  violations: string[];
  close(): Promise<void>;
}

export interface TestServerOptions extends GatewayOptions {
  /** Check every answer against the contract (default true; off for a server that is wrong on purpose). */
  checkContract?: boolean;
  /** Adds to the app before it listens (routes that misbehave on purpose). */
  extend?: (app: FastifyInstance) => void;
}

export async function startServer(options: TestServerOptions = {}): Promise<TestServer> {
  const { checkContract = true, extend, ...gateway } = options;
  const violations: string[] = [];
  const app = await buildApp({ store: 'memory', logger: false, ...gateway });
  if (checkContract) checkAnswers(app, (v) => violations.push(v));
  extend?.(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('server has no port');
  return {
    baseUrl: `http://127.0.0.1:${address.port}`,
    app,
    violations,
    async close() {
      await app.close();
      if (violations.length > 0) throw new Error(`Responses that break the contract:\n${violations.join('\n')}`);
    },
  };
}

/** Every JSON (or text) answer of an operation, validated by the description the operation belongs to. */
function checkAnswers(app: FastifyInstance, report: (violation: string) => void): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const op = request.routeOptions.config.operation;
    if (!op || typeof payload !== 'string') return payload;
    const described = adminApi.operations.includes(op) ? adminApi : contract;
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
    const verdict = described.validateResponse(op.operationId, { status: reply.statusCode, contentType, headers, body });
    if (!verdict.ok) report(`${request.method} ${request.url} → ${reply.statusCode}: ${verdict.message}`);
    return payload;
  });
}

/**
 * One server for the whole test file: started before its tests, closed (and checked for contract
 * violations) after them.
 *
 * @example
 *   const server = useServer();
 *   it('lists models', async () => expect((await fetch(`${server.baseUrl}/v1/models`)).status).toBe(200));
 */
export function useServer(options: TestServerOptions = {}): TestServer {
  let current: TestServer | undefined;
  beforeAll(async () => {
    current = await startServer(options);
  });
  afterAll(async () => {
    await current?.close();
  });
  const started = (): TestServer => {
    if (!current) throw new Error('The test server starts in beforeAll; use it inside a test or a hook.');
    return current;
  };
  return {
    get baseUrl() {
      return started().baseUrl;
    },
    get app() {
      return started().app;
    },
    get violations() {
      return started().violations;
    },
    close: () => started().close(),
  };
}
