/**
 * The mutation harness: one deliberate fault at a time, injected from outside an unmodified reference
 * server (a proxy in front of it, or a wrapper of its store or services; see test/mutation/), and the suite
 * (full profile, destructive) must report at least one violation for each. A kill only counts when the
 * suite passes the same server through a proxy without a fault, so the harness checks that first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../src/conformance/run.ts';
import { createMemoryStore } from '../../src/server/domain/store/memory.ts';
import { startServer } from '../helpers/server.ts';
import { faults, type FaultDefinition } from '../mutation/faults.ts';
import { startFaultProxy } from '../mutation/proxy.ts';
import { demoKeys } from './helpers/keys.ts';

// Two tiers keep it quick: the tier rule and the quota table are checked for both, and the image checks
// have the pro key's quota to spend.
const options = { profile: 'full', destructive: true, keys: { starter: demoKeys.starter, pro: demoKeys.pro } } as const;
const names = Object.keys(faults);
const killedBy = new Map<string, string>();
let baselineFailures: string[] = [];

/** A fresh server (its own memory store, wrapped when the fault needs it) behind a proxy with the fault. */
async function faultyGateway(name?: string) {
  const fault: Partial<FaultDefinition> = name === undefined ? {} : faults[name]!;
  const store = createMemoryStore();
  // A server with a fault breaks the contract on purpose: its answers are not checked as it sends them.
  const server = await startServer({ store, ...fault.server?.(store), checkContract: name === undefined });
  const proxy = await startFaultProxy({ target: server.baseUrl, fault: fault.proxy });
  return {
    baseUrl: proxy.baseUrl,
    async close() {
      await proxy.close();
      await server.close();
    },
  };
}

beforeAll(async () => {
  const gateway = await faultyGateway();
  try {
    const report = await runConformance({ baseUrl: gateway.baseUrl, ...options });
    baselineFailures = report.results.filter((r) => r.outcome === 'failed').map((r) => r.id);
  } finally {
    await gateway.close();
  }
});

afterAll(() => {
  console.log(`mutation kill rate: ${killedBy.size}/${names.length}`);
  for (const name of names) console.log(`  ${name.padEnd(28)} ${killedBy.get(name) ?? 'SURVIVED'}`);
});

describe.concurrent('mutation harness', () => {
  it.sequential('starts from a server the suite passes through a proxy without a fault', () => {
    expect(baselineFailures).toEqual([]);
  });

  it.each(names)('kills %s', async (name) => {
    const gateway = await faultyGateway(name);
    try {
      // The first violation is enough; checks that fail without the fault cannot tell.
      const report = await runConformance({ baseUrl: gateway.baseUrl, ...options, stopOnFailure: true, skip: baselineFailures });
      const failed = report.results.find((r) => r.outcome === 'failed');
      if (failed) killedBy.set(name, `${failed.id}: ${failed.violations[0]?.message.slice(0, 90)}`);
      expect(failed, `no check noticed the fault ${name} (${faults[name]!.breaks})`).toBeDefined();
    } finally {
      await gateway.close();
    }
  });
});
