/**
 * A reference server with the validating proxy in front of it (and, for a fault, the mutation harness's fault
 * proxy between the two: a faulty implementation), for a test file's tests; everything closed after them.
 *
 *   client → validating proxy → [fault proxy →] reference server
 */
import { afterAll, beforeAll } from 'vitest';
import type { ContractName } from '../../src/contract/index.ts';
import { startProxy, type Proxy } from '../../src/conformance/proxy/proxy.ts';
import type { Judged } from '../../src/conformance/proxy/judge.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import type { FaultDefinition } from '../mutation/faults.ts';
import { startFaultProxy, type FaultProxy } from '../mutation/proxy.ts';

export interface Proxied {
  /** The validating proxy: what the client is pointed at. */
  readonly baseUrl: string;
  /** The reference server itself, for comparing answers. */
  readonly direct: string;
  readonly proxy: Proxy;
  /** Every exchange judged so far, in order; a test may empty it. */
  readonly judged: Judged[][];
}

export interface ProxiedOptions {
  contracts: ContractName[];
  fault?: FaultDefinition;
}

/** Starts the three (or two), and returns them with `close()`. */
export async function startProxied(options: ProxiedOptions): Promise<Proxied & { close(): Promise<void> }> {
  const judged: Judged[][] = [];
  // A server with a fault breaks the contract on purpose: its answers are not checked as it sends them.
  const server: TestServer = await startServer({ store: 'memory', checkContract: options.fault === undefined });
  const faulty: FaultProxy | undefined = options.fault ? await startFaultProxy({ target: server.baseUrl, fault: options.fault.proxy }) : undefined;
  const proxy = await startProxy({ upstream: faulty?.baseUrl ?? server.baseUrl, port: 0, contracts: options.contracts, onJudged: (j) => void judged.push([...j]) });
  return {
    baseUrl: proxy.baseUrl,
    direct: server.baseUrl,
    proxy,
    judged,
    async close() {
      await proxy.close();
      await faulty?.close();
      await server.close();
    },
  };
}

/** The same for a test file's tests: started before them, closed after. */
export function useProxied(options: ProxiedOptions): Proxied {
  let started: Awaited<ReturnType<typeof startProxied>> | undefined;
  beforeAll(async () => {
    started = await startProxied(options);
  });
  afterAll(async () => {
    await started?.close();
  });
  const get = () => {
    if (!started) throw new Error('The proxied server starts in beforeAll; use it inside a test.');
    return started;
  };
  return {
    get baseUrl() {
      return get().baseUrl;
    },
    get direct() {
      return get().direct;
    },
    get proxy() {
      return get().proxy;
    },
    get judged() {
      return get().judged;
    },
  };
}

/** The violations of the exchanges judged, one line each, for a failure message. */
export function violationLines(judged: readonly Judged[][]): string[] {
  return judged.flat().flatMap((j) => j.violations.map((v) => `${j.id} ${j.contract}:${j.operationId} ${v.side} ${v.ruleId}: ${v.message}`));
}
