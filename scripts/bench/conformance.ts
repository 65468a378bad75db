/**
 * How long the conformance suite takes against the reference server: the full profile, destructive checks
 * included, with the four demo keys (as `npm run conformance -- --profile full --destructive` runs it).
 */
import { runConformance } from '../../src/conformance/run.ts';
import { demoKeys } from '../../src/server/domain/keys.ts';

export interface ConformanceTiming {
  durationS: number;
  passed: number;
  failed: number;
  how: string;
}

/**
 * @example
 *   const { durationS, failed } = await timeConformance('http://127.0.0.1:40123');
 */
export async function timeConformance(baseUrl: string): Promise<ConformanceTiming> {
  const keys = Object.fromEntries(demoKeys.map(({ tier, key }) => [tier, key]));
  const started = performance.now();
  const report = await runConformance({ baseUrl, keys, profile: 'full', destructive: true });
  return {
    durationS: (performance.now() - started) / 1000,
    passed: report.summary.passed,
    failed: report.summary.failed,
    how: `runConformance, profile full, destructive, ${report.summary.requests} requests`,
  };
}
