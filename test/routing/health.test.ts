// One upstream's health (decision D40), step by step on a clock the test moves: failures within the window
// cool it down, older ones are forgotten; a cool-down lets exactly one probe through, whose success heals and
// whose failure cools down again; a probe let go unjudged is due again; a 429's rest ends healthy, without a
// probe; a later, shorter cool-down never shortens one under way.
import { describe, expect, it } from 'vitest';
import { UpstreamHealth } from '../../src/server/routing/health.ts';

const POLICY = { failures: 3, windowMs: 10_000, durationMs: 30_000 };
const failure = (at: number) => ({ kind: 'server_error' as const, at, account: 'answered 503' });

describe('an upstream’s health', () => {
  it('cools down after N failures within the window, not after N spread wider', () => {
    const health = new UpstreamHealth(POLICY);
    health.failed(0, health.admit(), failure(0));
    health.failed(5_000, health.admit(), failure(5_000));
    // The first failure leaves the window before the third comes.
    health.failed(10_001, health.admit(), failure(10_001));
    expect(health.view(10_001)).toMatchObject({ state: 'healthy', recentFailures: 2 });
    health.failed(12_000, health.admit(), failure(12_000));
    expect(health.view(12_000)).toMatchObject({ state: 'cooling_down', until: 42_000, recentFailures: 0, attempts: 4, served: 0 });
    expect(health.available(41_999)).toBe(false);
  });

  it('then lets exactly one probe through: its failure cools down again, its success heals', () => {
    const health = new UpstreamHealth({ ...POLICY, failures: 1 });
    health.failed(0, health.admit(), failure(0));
    expect(health.view(30_000).state).toBe('probing');
    expect(health.available(30_000)).toBe(true);
    expect(health.admit()).toBe(true);
    // While the probe is on its way, no other request.
    expect(health.available(30_001)).toBe(false);
    health.failed(30_500, true, failure(30_500));
    expect(health.view(30_500)).toMatchObject({ state: 'cooling_down', until: 60_500 });
    expect(health.admit()).toBe(true);
    health.succeeded(true);
    expect(health.view(61_000)).toMatchObject({ state: 'healthy', recentFailures: 0 });
    expect(health.admit()).toBe(false);
  });

  it('a probe let go without a judgement (the caller left) is due again', () => {
    const health = new UpstreamHealth({ ...POLICY, failures: 1 });
    health.failed(0, health.admit(), failure(0));
    expect(health.admit()).toBe(true);
    health.released(true);
    expect(health.available(30_000)).toBe(true);
    expect(health.admit()).toBe(true);
  });

  it("rests for a 429's Retry-After and comes back healthy; a shorter cool-down never shortens a longer one", () => {
    const health = new UpstreamHealth(POLICY);
    health.failed(0, health.admit(), { kind: 'rate_limited', at: 0, account: 'answered 429' }, 20_000);
    expect(health.view(0)).toMatchObject({ state: 'cooling_down', until: 20_000 });
    expect(health.restsUntil(0)).toBe(20_000);
    expect(health.view(20_000).state).toBe('healthy');
    health.failed(20_000, health.admit(), failure(20_000), 60_000);
    health.failed(20_001, health.admit(), failure(20_001), 1_000);
    expect(health.backAt(20_001)).toBe(80_000);
    health.failed(20_002, health.admit(), failure(20_002));
    // Cooling down for failures (until 50 002) and resting (until 80 000): nothing to wait for as a rest alone.
    expect(health.backAt(20_002)).toBe(80_000);
    expect(health.restsUntil(20_002)).toBeUndefined();
  });
});
