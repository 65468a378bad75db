/**
 * What a check is, what it runs with, and the `Tester` it reports through. Each check sends requests
 * with `t.send`, and reports what it finds with `t.fail` / `t.expect` / `t.shape`; the runner collects it.
 */
import type { Agent } from 'node:http';
import type { Contract, Operation, Protocol, ProtocolRule } from '../contract/index.ts';
import type { Catalogue } from './catalogue.ts';
import { send, type Exchange, type OutgoingRequest } from './http.ts';
import type { Credentials, KeyRing } from './keys.ts';
import { withLinkedParameters } from './links.ts';
import type { Profile } from './profiles.ts';
import type { Violation } from './results.ts';
import { checkShape, type ShapeOptions } from './shape.ts';

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
  const id = ctx.protocol.name === 'gateway' ? check.id : `${ctx.protocol.name}:${check.id}`;
  return [{ ...check, id, contract: ctx.protocol.name, rule, reference: check.reference || found.level === 'reference' }];
}

/**
 * Images each key has been given during this run, per path, and what the server last said remains for it
 * (`x-ratelimit-remaining-images`, when it sends the header): checks that need images plan from the
 * server's own figure, so a key used earlier the same day is not taken for a quota bug.
 */
export class ImageLedger {
  private readonly spent = new Map<string, Map<string, number>>();
  private readonly told = new Map<string, number>();

  /** Records the server's own count of what remains today for a key. */
  learn(key: string, remaining: number): void {
    this.told.set(key, remaining);
  }

  /** Images left today for the key: the server's last figure, else the tier's quota less what this run was given. */
  left(key: string, quota: number): number {
    return this.told.get(key) ?? Math.max(0, quota - this.of(key));
  }

  /** Whether the server has told what remains for the key. */
  knows(key: string): boolean {
    return this.told.has(key);
  }

  add(key: string, images: number, path: string): void {
    const byPath = this.spent.get(key) ?? new Map<string, number>();
    byPath.set(path, (byPath.get(path) ?? 0) + images);
    this.spent.set(key, byPath);
  }

  /** Images given to the key, on every path or only on those `only` accepts. */
  of(key: string, only: (path: string) => boolean = () => true): number {
    let total = 0;
    for (const [path, n] of this.spent.get(key) ?? []) if (only(path)) total += n;
    return total;
  }
}

/** The header in which an implementation may say how many images a key has left today (a reference decision). */
const REMAINING_IMAGES = 'x-ratelimit-remaining-images';

/** Thrown by `t.skip` to end a check as skipped. */
export class Skip extends Error {}

export class Tester {
  readonly violations: Violation[] = [];
  requests = 0;

  /**
   * @param spendsQuotaOnPurpose a quota check: a 429 for the daily quota is what it looks for. For any other
   * check, an image request refused because the key's day is used up (the server says so) ends the check as
   * skipped with the server's figure, never as a violation.
   */
  constructor(
    readonly ctx: RunContext,
    readonly check: Check,
    private readonly spendsQuotaOnPurpose = false,
  ) {}

  /**
   * Sends a request to the implementation; every image it returns is booked against the key used. A path
   * that names something another operation creates (`{response_id}`) is filled first by calling that
   * operation with the same key (links.ts); when that fails the check is skipped, saying why.
   */
  async send(req: OutgoingRequest): Promise<Exchange> {
    req = { ...req, headers: { ...this.ctx.headers, ...req.headers } };
    if (/\{\w+\}/.test(req.path)) {
      const own = this.ctx.credentials.keyOf(req.headers);
      const key = own !== undefined && this.ctx.keys.has(own) ? own : this.ctx.keys.best()?.key;
      const filled = await withLinkedParameters(this.ctx, req, key, (r) => this.send(r));
      if (typeof filled === 'string') throw new Skip(filled);
      req = filled;
    }
    this.requests++;
    const ex = await send(this.ctx.baseUrl, req, this.ctx.timeoutMs, this.ctx.agent);
    const data = (ex.response?.json as { data?: unknown })?.data;
    const key = this.ctx.credentials.keyOf(req.headers);
    if (key && ex.response && ex.response.status < 300 && Array.isArray(data)) {
      this.ctx.ledger.add(key, data.filter((d) => typeof (d as { b64_json?: unknown })?.b64_json === 'string').length, req.path);
    }
    const remaining = ex.response?.headers[REMAINING_IMAGES];
    if (key && remaining !== undefined && /^\d+$/.test(remaining)) this.ctx.ledger.learn(key, Number(remaining));
    const wanted = Number((req.json as { n?: unknown } | undefined)?.n ?? 1);
    if (!this.spendsQuotaOnPurpose && ex.response?.status === 429 && remaining !== undefined && Number(remaining) < wanted) {
      throw new Skip(`quota left: ${remaining}, needs ${wanted} (the key's images for today are used up; use a fresh key or wait for the reset)`);
    }
    return ex;
  }

  /**
   * Records a violation. `rule` is a rule of the description by its key (`chat-stream`, or `chat-stream: a
   * detail`), cited in its words; a place of the description (`#/components/…`), which states the nearest
   * `x-rule` above it; or words of the check's own, under the check's rule.
   */
  fail(message: string, rule: string, exchange?: Exchange): void {
    const cited = this.cite(rule);
    this.violations.push({ message, rule: cited.text, ruleId: cited.rule.id, ...(cited.rule.url ? { url: cited.rule.url } : {}), ...(exchange ? { exchange } : {}) });
  }

  /** The rule that `rule` names (see `fail`), and how a report words it. */
  private cite(rule: string): { rule: ProtocolRule | { id: string; url?: string }; text: string } {
    const protocol = this.ctx.protocol;
    const own = protocol.rule(this.check.rule) ?? { id: `${protocol.name}/${this.check.rule}` };
    const [head, ...detail] = rule.split(': ');
    const named = protocol.rule(head!);
    if (named) return { rule: named, text: [named.cite, ...detail].join(': ') };
    if (rule.startsWith('#')) {
      const key = this.ctx.contract.ruleAt(rule.slice(1));
      const placed = key === undefined ? undefined : protocol.rule(key);
      if (placed) return { rule: placed, text: `${placed.cite} (${rule})` };
    }
    return { rule: own, text: rule };
  }

  /** Records a violation unless `ok`; returns `ok` so a check can stop on a broken precondition. */
  expect(ok: boolean, message: string, rule: string, exchange?: Exchange): boolean {
    if (!ok) this.fail(message, rule, exchange);
    return ok;
  }

  /** Checks the exchange against the operation's documented responses; true when it conforms. */
  shape(op: Operation, ex: Exchange, options?: ShapeOptions): boolean {
    const found = checkShape(this.ctx, op, ex, options);
    for (const v of found) this.fail(v.message, v.rule, v.exchange);
    return found.length === 0;
  }

  /** Expects one status (or any of a list); true when it matches. */
  status(ex: Exchange, expected: number | number[], rule: string, what = ''): boolean {
    const list = Array.isArray(expected) ? expected : [expected];
    const got = ex.response?.status;
    return this.expect(
      got !== undefined && list.includes(got),
      `${what ? `${what}: ` : ''}expected status ${list.join(' or ')}, got ${got ?? `no answer (${ex.error})`}`,
      rule,
      ex,
    );
  }

  skip(reason: string): never {
    throw new Skip(reason);
  }
}
