/**
 * The mutation harness: the reference server with one deliberate fault at a time; the suite (full
 * profile, destructive) must report at least one violation for each. A kill only counts when
 * the unmutated server passes the same checks, so the harness first runs the suite against it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../src/conformance/run.ts';
import { faultNames } from '../../src/server/faults.ts';
import { startServer } from '../helpers/server.ts';
import { demoKeys } from './helpers/keys.ts';

// Two tiers keep it quick: the tier rule and the quota table are checked for both, and the image checks
// have the pro key's quota to spend.
const options = { profile: 'full', destructive: true, keys: { starter: demoKeys.starter, pro: demoKeys.pro } } as const;
const killedBy = new Map<string, string>();
let baselineFailures: string[] = [];

beforeAll(async () => {
  const server = await startServer({ store: 'memory' });
  try {
    const report = await runConformance({ baseUrl: server.baseUrl, ...options });
    baselineFailures = report.results.filter((r) => r.outcome === 'failed').map((r) => r.id);
  } finally {
    await server.close();
  }
});

afterAll(() => {
  console.log(`mutation kill rate: ${killedBy.size}/${faultNames.length}`);
  for (const fault of faultNames) console.log(`  ${fault.padEnd(26)} ${killedBy.get(fault) ?? 'SURVIVED'}`);
});

describe.concurrent('mutation harness', () => {
  it.sequential('starts from a reference server the suite passes', () => {
    expect(baselineFailures).toEqual([]);
  });

  it.each(faultNames)('kills %s', async (fault) => {
    const server = await startServer({ store: 'memory', faults: [fault] });
    try {
      // The first violation is enough; checks that fail without the fault cannot tell.
      const report = await runConformance({ baseUrl: server.baseUrl, ...options, stopOnFailure: true, skip: baselineFailures });
      const failed = report.results.find((r) => r.outcome === 'failed');
      if (failed) killedBy.set(fault, `${failed.id}: ${failed.violations[0]?.message.slice(0, 90)}`);
      expect(failed, `no check noticed the fault ${fault}`).toBeDefined();
    } finally {
      await server.close();
    }
  });
});
