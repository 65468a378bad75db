/**
 * What the proxy remembers of the traffic, in bounded memory however long it runs: a count per operation,
 * the first `keep` exchanges that broke a rule (whole, their answers cut), a count of the rest, and the fields
 * clients sent that the contract does not name, each with how often. From it, a `Report` like a run's, for
 * the same console, JUnit, JSON and HTML writers.
 */
import { operationLabel, type CheckResult, type Report, type TrafficSummary } from '../results.ts';
import type { Judged } from './judge.ts';

interface PerOperation {
  contract: string;
  operationId: string;
  docs?: string;
  exchanges: number;
  violating: number;
}

export class TrafficLedger {
  readonly #operations = new Map<string, PerOperation>();
  readonly #kept: CheckResult[] = [];
  readonly #undeclared = new Map<string, { contract: string; operationId: string; field: string; count: number }>();
  #exchanges = 0;
  #violating = 0;
  #notKept = 0;
  #unmatched = 0;
  #undeclaredNotListed = 0;
  #unjudged = 0;
  #partial = 0;

  /**
   * @param keep violating exchanges kept whole for the reports.
   * @param fields distinct undeclared fields listed.
   */
  constructor(
    private readonly keep = 100,
    private readonly fields = 500,
  ) {}

  /** An exchange that no contract describes. */
  unmatched(): void {
    this.#exchanges++;
    this.#unmatched++;
  }

  /** An exchange that passed while the judge was too far behind to take it: forwarded, not judged. */
  unjudged(): void {
    this.#exchanges++;
    this.#unjudged++;
  }

  /** An exchange, judged against each contract that has its operation (one judgement or more). */
  record(judged: readonly Judged[]): void {
    this.#exchanges++;
    if (judged.some((j) => j.violations.length > 0)) this.#violating++;
    if (judged.some((j) => j.partial)) this.#partial++;
    for (const j of judged) {
      const key = operationLabel(j);
      const op = this.#operations.get(key) ?? { contract: j.contract, operationId: j.operationId, ...(j.docs ? { docs: j.docs } : {}), exchanges: 0, violating: 0 };
      op.exchanges++;
      this.#operations.set(key, op);
      for (const field of j.undeclared) {
        const at = `${key} ${field}`;
        const seen = this.#undeclared.get(at);
        if (seen) seen.count++;
        else if (this.#undeclared.size < this.fields) this.#undeclared.set(at, { contract: j.contract, operationId: j.operationId, field, count: 1 });
        else this.#undeclaredNotListed++;
      }
      if (j.violations.length === 0) continue;
      op.violating++;
      if (this.#kept.length >= this.keep) {
        this.#notKept++;
        continue;
      }
      const exchange = j.exchange!;
      const { method, url } = exchange.request;
      this.#kept.push({
        id: `${operationLabel(j)}/traffic/${j.id}`,
        contract: j.contract,
        operationId: j.operationId,
        family: 'traffic',
        title: `${j.id}: ${method} ${new URL(url).pathname} → ${exchange.response?.status ?? exchange.error}`,
        ...(j.docs ? { docs: j.docs } : {}),
        outcome: 'failed',
        violations: j.violations.map((v) => ({ ...v, message: `the ${v.side}: ${v.message}`, exchange })),
        requests: 1,
        durationMs: exchange.durationMs,
      });
    }
  }

  get violating(): number {
    return this.#violating;
  }

  summary(): TrafficSummary {
    return {
      exchanges: this.#exchanges,
      violating: this.#violating,
      notKept: this.#notKept,
      unmatched: this.#unmatched,
      unjudged: this.#unjudged,
      partial: this.#partial,
      undeclared: [...this.#undeclared.values()].sort((a, b) => b.count - a.count),
      undeclaredNotListed: this.#undeclaredNotListed,
    };
  }

  /** The traffic so far as a report: per operation, how many exchanges conformed; then each violating one kept. */
  report(base: { baseUrl: string; contracts: string[]; profile: Report['profile']; startedAt: string; durationMs: number }): Report {
    const conforming: CheckResult[] = [...this.#operations.values()].map((op) => ({
      id: `${operationLabel(op)}/traffic/conforming`,
      contract: op.contract,
      operationId: op.operationId,
      family: 'traffic',
      title: `${op.exchanges - op.violating} of ${op.exchanges} exchanges conformed`,
      ...(op.docs ? { docs: op.docs } : {}),
      outcome: 'passed',
      violations: [],
      requests: op.exchanges,
      durationMs: 0,
    }));
    const results = [...conforming, ...this.#kept].sort((a, b) => operationLabel(a).localeCompare(operationLabel(b)));
    return {
      ...base,
      waivers: [],
      destructive: false,
      seed: 0,
      summary: { passed: this.#exchanges - this.#violating - this.#unjudged - this.#unmatched, failed: this.#violating, skipped: this.#unjudged, waived: 0, requests: this.#exchanges },
      results,
      traffic: this.summary(),
    };
  }
}
