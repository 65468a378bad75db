/**
 * The tester a check runs with (check.ts says what it offers): it sends the check's requests over HTTP,
 * books the images they are given, and collects the violations found, for the runner to report.
 */
import type { Operation, ProtocolRule } from '../contract/index.ts';
import type { Check, RunContext, ShapeOptions, Tester } from './check.ts';
import { send, type Exchange, type OutgoingRequest } from './http.ts';
import { withLinkedParameters } from './links.ts';
import type { Violation } from './results.ts';
import { checkShape } from './shape.ts';

/** The header in which an implementation may say how many images a key has left today (a reference decision). */
const REMAINING_IMAGES = 'x-ratelimit-remaining-images';

/** Thrown by `t.skip` to end a check as skipped. */
export class Skip extends Error {}

export class CheckTester implements Tester {
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

  fail(message: string, rule: string, exchange?: Exchange): void {
    const cited = this.cite(rule);
    this.violations.push({ message, rule: cited.text, ruleId: cited.rule.id, ...(cited.rule.url ? { url: cited.rule.url } : {}), ...(exchange ? { exchange } : {}) });
  }

  /** The rule that `rule` names (see `Tester.fail`), and how a report words it. */
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

  expect(ok: boolean, message: string, rule: string, exchange?: Exchange): boolean {
    if (!ok) this.fail(message, rule, exchange);
    return ok;
  }

  shape(op: Operation, ex: Exchange, options?: ShapeOptions): boolean {
    const found = checkShape(this.ctx, op, ex, options);
    for (const v of found) this.fail(v.message, v.rule, v.exchange);
    return found.length === 0;
  }

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
