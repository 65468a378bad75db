/**
 * What a check is, what it runs with, and what it may do while it runs (`Tester`); and when a check is planned.
 * The tester itself (tester.ts) sits above the modules it calls: everything here is shared by them, and
 * imports none of them.
 */
import type { Agent } from 'node:http';
import type { Contract, Operation, Protocol } from '../contract/index.ts';
import type { Catalogue } from './catalogue.ts';
import type { Exchange, OutgoingRequest } from './http.ts';
import type { ImageLedger } from './image-ledger.ts';
import type { Credentials, KeyRing } from './keys.ts';
import type { Profile } from './profiles.ts';
import { qualified } from './results.ts';

/** `traffic`: what the proxy judges of the exchanges it forwards (`gateway-conformance proxy`). */
export type Family = 'responses' | 'auth' | 'validation' | 'errors' | 'behaviour' | 'images' | 'tiers' | 'quota' | 'streaming' | 'traffic';

export interface Check {
  /** Stable and unique: `<operationId>/<family>/<slug>`, after `<contract>:` for another contract than the gateway's. */
  id: string;
  /** The description it checks against (`gateway`, `openai`, `anthropic`). */
  contract: string;
  operationId: string;
  family: Family;
  title: string;
  /** The rule it verifies: a key of the description's `x-protocol` rules. A failure cites it unless it says otherwise. */
  rule: string;
  /** Belongs to a reference decision: run in the `full` profile only. */
  reference?: boolean;
  /** Needs a server that keeps state and follows the request (not a stateless mock). */
  stateful?: boolean;
  /** Spends a key's daily quota: run only with `--destructive`. */
  destructive?: boolean;
  run(t: Tester): Promise<void>;
}

export interface RunContext {
  baseUrl: string;
  profile: Profile;
  keys: KeyRing;
  seed: number;
  catalogue: Catalogue;
  ledger: ImageLedger;
  timeoutMs: number;
  /** The description checked against, and what it says of itself. */
  contract: Contract;
  protocol: Protocol;
  /** How the description takes its keys. */
  credentials: Credentials;
  /** Headers sent with every request (`--header`), under the check's own. */
  headers: Record<string, string>;
  /** Keeps connections open across the run's requests. */
  agent?: Agent;
}

export interface ShapeOptions {
  /**
   * Where the status code is this project's choice (core profile: "a 4xx `{error}`"), an undocumented
   * 4xx is accepted if its body is an `Error`.
   */
  anyClientError?: boolean;
}

/** What a check does its work with: it sends requests with `send`, and reports what it finds with the rest. */
export interface Tester {
  readonly ctx: RunContext;
  /**
   * Sends a request to the implementation; every image it returns is booked against the key used. A path
   * that names something another operation creates (`{response_id}`) is filled first by calling that
   * operation with the same key (links.ts); when that fails the check is skipped, saying why.
   */
  send(req: OutgoingRequest): Promise<Exchange>;
  /**
   * Records a violation. `rule` is a rule of the description by its key (`chat-stream`, or `chat-stream: a
   * detail`), cited in its words; a place of the description (`#/components/…`), which states the nearest
   * `x-rule` above it; or words of the check's own, under the check's rule.
   */
  fail(message: string, rule: string, exchange?: Exchange): void;
  /** Records a violation unless `ok`; returns `ok` so a check can stop on a broken precondition. */
  expect(ok: boolean, message: string, rule: string, exchange?: Exchange): boolean;
  /** Checks the exchange against the operation's documented responses; true when it conforms. */
  shape(op: Operation, ex: Exchange, options?: ShapeOptions): boolean;
  /** Expects one status (or any of a list); true when it matches. */
  status(ex: Exchange, expected: number | number[], rule: string, what?: string): boolean;
  /** Ends the check as skipped, saying why. */
  skip(reason: string): never;
}

/** Whether this run checks the description's reference decisions (`x-conformance: reference`): the full profile, on a description that has them. */
export function checksDecisions(ctx: RunContext): boolean {
  return ctx.profile.reference && ctx.protocol.decisions;
}

/** Whether an error must have exactly its documented status: always for a vendor's statuses, in the full profile for the gateway's. */
export function exactStatuses(ctx: RunContext): boolean {
  return ctx.protocol.exactStatuses || ctx.profile.reference;
}

/**
 * Plans a check of `rule` when the description states it (a description that does not state a rule is not
 * checked for it); a rule of the `reference` level makes the check a reference one.
 */
export function stated(ctx: RunContext, rule: string, check: Omit<Check, 'rule' | 'contract'>): Check[] {
  const found = ctx.protocol.rule(rule);
  if (!found) return [];
  const id = qualified(ctx.protocol.name, check.id);
  return [{ ...check, id, contract: ctx.protocol.name, rule, reference: check.reference || found.level === 'reference' }];
}
