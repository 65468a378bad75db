/**
 * What a check is, what it runs with, and the `Tester` it reports through. Each check sends requests
 * with `t.send`, and reports what it finds with `t.fail` / `t.expect` / `t.shape`; the runner collects it.
 */
import type { Agent } from 'node:http';
import type { Operation } from '../contract/index.ts';
import type { Catalogue } from './catalogue.ts';
import { send, type Exchange, type OutgoingRequest } from './http.ts';
import { apiKeyHeader, type KeyRing } from './keys.ts';
import { withLinkedParameters } from './links.ts';
import type { Profile } from './profiles.ts';
import type { Violation } from './results.ts';
import { checkShape, type ShapeOptions } from './shape.ts';

export type Family = 'responses' | 'auth' | 'validation' | 'errors' | 'behaviour' | 'images' | 'tiers' | 'quota' | 'streaming';

export interface Check {
  /** Stable and unique: `<operationId>/<family>/<slug>`. */
  id: string;
  operationId: string;
  family: Family;
  title: string;
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
  /** Keeps connections open across the run's requests. */
  agent?: Agent;
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
    private readonly spendsQuotaOnPurpose = false,
  ) {}

  /**
   * Sends a request to the implementation; every image it returns is booked against the key used. A path
   * that names something another operation creates (`{response_id}`) is filled first by calling that
   * operation with the same key (links.ts); when that fails the check is skipped, saying why.
   */
  async send(req: OutgoingRequest): Promise<Exchange> {
    if (/\{\w+\}/.test(req.path)) {
      const own = keyUsed(req);
      const key = own !== undefined && this.ctx.keys.tierOf(own) !== undefined ? own : this.ctx.keys.best()?.key;
      const filled = await withLinkedParameters(this.ctx, req, key, (r) => this.send(r));
      if (typeof filled === 'string') throw new Skip(filled);
      req = filled;
    }
    this.requests++;
    const ex = await send(this.ctx.baseUrl, req, this.ctx.timeoutMs, this.ctx.agent);
    const data = (ex.response?.json as { data?: unknown })?.data;
    const key = keyUsed(req);
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

  fail(message: string, rule: string, exchange?: Exchange): void {
    this.violations.push({ message, rule, ...(exchange ? { exchange } : {}) });
  }

  /** Records a violation unless `ok`; returns `ok` so a check can stop on a broken precondition. */
  expect(ok: boolean, message: string, rule: string, exchange?: Exchange): boolean {
    if (!ok) this.fail(message, rule, exchange);
    return ok;
  }

  /** Checks the exchange against the operation's documented responses; true when it conforms. */
  shape(op: Operation, ex: Exchange, options?: ShapeOptions): boolean {
    const found = checkShape(op, ex, this.ctx.profile, options);
    this.violations.push(...found);
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

function keyUsed(req: OutgoingRequest): string | undefined {
  const headers = Object.fromEntries(Object.entries(req.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  return headers[apiKeyHeader] || headers.authorization?.replace(/^Bearer\s+/i, '') || undefined;
}
