/**
 * The mutation harness: one deliberate fault at a time, injected from outside an unmodified reference
 * server (a proxy in front of it, or a wrapper of its store or services; see test/mutation/), and the suite
 * (full profile, destructive) must report at least one violation for each. A fault of a vendor protocol's
 * rule (`protocol`) must also be caught against that protocol's description in the core profile. A kill only
 * counts when the suite passes the same server through a proxy without a fault, so the harness checks that first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance, type ConformanceOptions } from '../../src/conformance/run.ts';
import { createMemoryStore } from '../../src/server/domain/store/memory.ts';
import { startServer } from '../helpers/server.ts';
import { faults, type FaultDefinition } from '../mutation/faults.ts';
import { startFaultProxy } from '../mutation/proxy.ts';
import { demoKeys } from './helpers/keys.ts';
import { documentedWaivers } from './helpers/waivers.ts';

// Two tiers keep it quick: the tier rule and the quota table are checked for both, and the image checks
// have the pro key's quota to spend.
const gateway = { profile: 'full', destructive: true, keys: { starter: demoKeys.starter, pro: demoKeys.pro } } as const;
/** A vendor protocol's run: its core profile, two keys without a tier, and (OpenAI) the reference's documented waivers. */
const vendor = (protocol: 'openai' | 'anthropic'): Omit<ConformanceOptions, 'baseUrl'> => ({
  contracts: [protocol], profile: 'core', apiKeys: [demoKeys.ultimate, demoKeys.pro], waive: protocol === 'openai' ? documentedWaivers() : [],
});
const runs = (fault?: Partial<FaultDefinition>): Array<[string, Omit<ConformanceOptions, 'baseUrl'>]> => [
  ['gateway, full', gateway],
  ...(fault?.protocol ? [[`${fault.protocol}, core`, vendor(fault.protocol)] as [string, Omit<ConformanceOptions, 'baseUrl'>]] : []),
];

const names = Object.keys(faults);
const killedBy = new Map<string, string[]>();
const baselineFailures = new Map<string, string[]>();

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
  for (const [label, options] of [...runs(), ['openai, core', vendor('openai')], ['anthropic, core', vendor('anthropic')]] as const) {
    const server = await faultyGateway();
    try {
      const report = await runConformance({ baseUrl: server.baseUrl, ...options });
      baselineFailures.set(label, report.results.filter((r) => r.outcome === 'failed').map((r) => r.id));
    } finally {
      await server.close();
    }
  }
});

afterAll(() => {
  const killed = names.filter((name) => killedBy.get(name)?.length === runs(faults[name]).length);
  console.log(`mutation kill rate: ${killed.length}/${names.length}`);
  for (const name of names) console.log(`  ${name.padEnd(36)} ${killedBy.get(name)?.join(' | ') ?? 'SURVIVED'}`);
});

describe.concurrent('mutation harness', () => {
  it.sequential('starts from a server the suite passes through a proxy without a fault, in every run', () => {
    expect(Object.fromEntries(baselineFailures)).toEqual({ 'gateway, full': [], 'openai, core': [], 'anthropic, core': [] });
  });

  it.each(names)('kills %s', { timeout: 120_000 }, async (name) => {
    for (const [label, options] of runs(faults[name])) {
      const gatewayUnderTest = await faultyGateway(name);
      try {
        // The first violation is enough; checks that fail without the fault cannot tell.
        const report = await runConformance({ baseUrl: gatewayUnderTest.baseUrl, ...options, stopOnFailure: true, skip: baselineFailures.get(label) });
        const failed = report.results.find((r) => r.outcome === 'failed');
        if (failed) killedBy.set(name, [...(killedBy.get(name) ?? []), `${label}: ${failed.id}: ${failed.violations.find((v) => !v.waived)?.message.slice(0, 80)}`]);
        expect(failed, `no check noticed the fault ${name} (${faults[name]!.breaks}) in the run ${label}`).toBeDefined();
      } finally {
        await gatewayUnderTest.close();
      }
    }
  });
});
