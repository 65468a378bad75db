// A second run on the same keys the same day: the suite plans from the server's own quota figures, so it
// passes again, or skips with the figures, and never reports today's earlier use as a violation.
import { describe, expect, it } from 'vitest';
import { runConformance } from '../../src/conformance/run.ts';
import { useServer } from '../helpers/server.ts';

const server = useServer();

describe('conformance runs on keys already used today', () => {
  it('passes the quota check twice in a row, and skips image checks with the quota left instead of failing', async () => {
    const options = { baseUrl: server.baseUrl, keys: { starter: 'sk-demo-starter' }, profile: 'full' as const, destructive: true };
    const first = await runConformance({ ...options, only: ['quota'] });
    expect(first.summary).toMatchObject({ passed: 1, failed: 0 });
    const second = await runConformance({ ...options, only: ['quota'] });
    expect(second.summary, JSON.stringify(second.results[0]?.violations)).toMatchObject({ passed: 1, failed: 0 });

    const images = await runConformance({ ...options, only: ['images'] });
    expect(images.summary.failed, JSON.stringify(images.results.filter((r) => r.outcome === 'failed').map((r) => r.violations[0]?.message))).toBe(0);
    const reasons = images.results.filter((r) => r.outcome === 'skipped').map((r) => r.reason);
    expect(reasons.length).toBeGreaterThan(0);
    expect(reasons.every((r) => /^quota left: 0/.test(r ?? ''))).toBe(true);
  });
});
