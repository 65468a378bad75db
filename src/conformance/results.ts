/** The outcome of a conformance run: what each check found, grouped by operation. */
import type { Exchange } from './http.ts';
import type { ProfileName } from './profiles.ts';

export interface Violation {
  /** What is wrong, in a sentence. */
  message: string;
  /** The rule broken: a decision (`D14`), a place in the interface specification, or a schema path. */
  rule: string;
  /** The exchange that showed it, when there is one. */
  exchange?: Exchange;
}

export type Outcome = 'passed' | 'failed' | 'skipped';

export interface CheckResult {
  id: string;
  /** The operation checked, or `general` for checks that belong to none (unknown route). */
  operationId: string;
  family: string;
  title: string;
  outcome: Outcome;
  /** Why it was skipped. */
  reason?: string;
  violations: Violation[];
  /** Requests sent, in order. */
  requests: number;
  durationMs: number;
}

export interface Report {
  baseUrl: string;
  profile: ProfileName;
  destructive: boolean;
  seed: number;
  startedAt: string;
  durationMs: number;
  summary: { passed: number; failed: number; skipped: number; requests: number };
  results: CheckResult[];
}

/** The results grouped by operation, in the order the operations first appear. */
export function groupByOperation(results: readonly CheckResult[]): Map<string, CheckResult[]> {
  const groups = new Map<string, CheckResult[]>();
  for (const r of results) {
    const list = groups.get(r.operationId) ?? [];
    list.push(r);
    groups.set(r.operationId, list);
  }
  return groups;
}

/** Whether the run found the implementation conforming (skipped checks do not count against it). */
export function conforms(report: Report): boolean {
  return report.summary.failed === 0;
}
