/**
 * The suite against the Prism mock of the contract: the mock profile passes (a stateless mock is
 * conforming as far as it can be), and the full profile finds what a mock cannot do, so the same run
 * that passes is able to fail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../src/conformance/run.ts';
import { formatReport } from '../../src/conformance/report/console.ts';
import { startMock, type Mock } from '../../scripts/lib/prism.ts';

let prism: Mock;

beforeAll(async () => {
  prism = await startMock();
});

afterAll(async () => {
  await prism?.close();
});

describe('against Prism', () => {
  it('passes the mock profile', async () => {
    const report = await runConformance({ baseUrl: prism.baseUrl, profile: 'mock' });
    expect(report.summary.failed, formatReport(report)).toBe(0);
    expect(report.summary.passed).toBeGreaterThan(50);
    // What a mock cannot do is skipped, not passed.
    expect(report.results.find((r) => r.id === 'createChatCompletion/auth/unknown-key')?.outcome).toBe('skipped');
    expect(report.results.find((r) => r.id === 'createImage/quota/ultimate')?.outcome).toBe('skipped');
  });

  it('fails the full profile, on what only a real server can do', async () => {
    const report = await runConformance({
      baseUrl: prism.baseUrl,
      profile: 'full',
      keys: { starter: 'sk-demo-starter', ultimate: 'sk-demo-ultimate' },
      only: ['auth', 'images', 'tiers'],
    });
    const failed = report.results.filter((r) => r.outcome === 'failed').map((r) => r.id);
    expect(failed).toContain('createChatCompletion/auth/unknown-key');
    expect(failed).toContain('createImage/images/n');
    expect(failed).toContain('general/tiers/starter-refused');
  });
});
