/** The outcome of a conformance run: what each check found, grouped by operation. */
import type { Exchange } from './http.ts';
import type { ProfileName } from './profiles.ts';

export interface Violation {
  /** What is wrong, in a sentence. */
  message: string;
  /** The rule broken, in words: a decision (`D14`), a place in the interface specification, a vendor's rule, with the schema path where one applies. */
  rule: string;
  /** The rule's id (`openai/error-object`): what `--waive` takes. */
  ruleId?: string;
  /** The vendor's page that states the rule. */
  url?: string;
  /** A deviation the implementation makes on purpose (`--waive`): reported, not counted as a failure. */
  waived?: boolean;
  /** The exchange that showed it, when there is one. */
  exchange?: Exchange;
}

/** `waived`: every violation the check found is one the run was told to expect (`--waive`). */
export type Outcome = 'passed' | 'failed' | 'skipped' | 'waived';

export interface CheckResult {
  id: string;
  /** The description checked against. */
  contract: string;
  /** The operation checked, or `general` for checks that belong to none (unknown route). */
  operationId: string;
  family: string;
  title: string;
  /** Where the operation is described: the gateway's docs page, or the vendor's reference. */
  docs?: string;
  outcome: Outcome;
  /** Why it was skipped. */
  reason?: string;
  violations: Violation[];
  /** Requests sent, in order. */
  requests: number;
  durationMs: number;
}

/** What the proxy (`gateway-conformance proxy`) saw of the traffic it forwarded. */
export interface TrafficSummary {
  exchanges: number;
  violating: number;
  /** Violating exchanges beyond the ones kept whole: counted only. */
  notKept: number;
  /** Requests no contract describes (`HEAD /`, a route of the implementation's own). */
  unmatched: number;
  /** Exchanges forwarded while the judge was too far behind to take them: not judged (memory stays bounded). */
  unjudged: number;
  /** Exchanges with a body longer than the proxy keeps, judged without it. */
  partial: number;
  /** Fields sent by clients that the contract lets through without naming them. */
  undeclared: Array<{ contract: string; operationId: string; field: string; count: number }>;
  /** Distinct undeclared fields beyond the ones listed: counted only. */
  undeclaredNotListed: number;
}

export interface Report {
  baseUrl: string;
  /** The descriptions checked against, in order. */
  contracts: string[];
  /** What `--waive` named. */
  waivers: string[];
  profile: ProfileName;
  destructive: boolean;
  seed: number;
  startedAt: string;
  durationMs: number;
  summary: { passed: number; failed: number; skipped: number; waived: number; requests: number };
  results: CheckResult[];
  /** A report of the proxy's traffic rather than of a run: the exchanges it saw (the summary then counts exchanges). */
  traffic?: TrafficSummary;
}

/** The contract whose names go bare: the gateway's own. */
const GATEWAY = 'gateway';
const SEPARATOR = ':';

/**
 * A name of a contract (an operationId, a check id) as the suite shows and takes it: bare for the gateway's,
 * after `<contract>:` for another (`anthropic:createMessage`), so that the names of several contracts never clash.
 */
export function qualified(contract: string, name: string): string {
  return contract === GATEWAY ? name : `${contract}${SEPARATOR}${name}`;
}

/** The name that `qualified` was given for the contract. */
export function unqualified(contract: string, name: string): string {
  const prefix = qualified(contract, '');
  return name.startsWith(prefix) ? name.slice(prefix.length) : name;
}

/** A name given on the command line (`openai:createResponse`, `anthropic:`, `createImage`): the contract it names, if any, and the rest. */
export function splitQualified(given: string): { contract?: string; name: string } {
  const at = given.indexOf(SEPARATOR);
  return at < 0 ? { name: given } : { contract: given.slice(0, at), name: given.slice(at + SEPARATOR.length) };
}

/** An operation as reports name it: `createMessage`, or `anthropic:createMessage` for another contract than the gateway's. */
export function operationLabel(r: { contract: string; operationId: string }): string {
  return qualified(r.contract, r.operationId);
}

/** The results grouped by operation (of each contract), in the order the operations first appear. */
export function groupByOperation(results: readonly CheckResult[]): Map<string, CheckResult[]> {
  const groups = new Map<string, CheckResult[]>();
  for (const r of results) {
    const label = operationLabel(r);
    const list = groups.get(label) ?? [];
    list.push(r);
    groups.set(label, list);
  }
  return groups;
}

/** Whether the run found the implementation conforming (skipped checks do not count against it). */
export function conforms(report: Report): boolean {
  return report.summary.failed === 0;
}
