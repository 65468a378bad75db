/**
 * Starts the reference server on 127.0.0.1 and a free port for a test, with every JSON answer checked
 * against the contract on its way out: `close()` fails the test if any answer broke it.
 *
 * @example
 *   const server = await startServer();
 *   const res = await fetch(`${server.baseUrl}/v1/models`);
 *   await server.close();
 */
import { afterAll, beforeAll } from 'vitest';
import { buildApp, type GatewayOptions } from '../../src/server/app.ts';

export interface TestServer {
  baseUrl: string;
  app: Awaited<ReturnType<typeof buildApp>>;
  /** Contract violations seen so far. */
  violations: string[];
  close(): Promise<void>;
}

export async function startServer(options: GatewayOptions = {}): Promise<TestServer> {
  const violations: string[] = [];
  const faulty = (options.faults ?? []).length > 0;
  const app = await buildApp({
    store: 'memory',
    logger: false,
    ...options,
    onContractViolation: faulty ? undefined : (v) => violations.push(`${v.method} ${v.url} → ${v.status}: ${v.message}`),
  });
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

/**
 * One server for the whole test file: started before its tests, closed (and checked for contract
 * violations) after them.
 *
 * @example
 *   const server = useServer();
 *   it('lists models', async () => expect((await fetch(`${server.baseUrl}/v1/models`)).status).toBe(200));
 */
export function useServer(options: GatewayOptions = {}): TestServer {
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
