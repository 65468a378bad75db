/**
 * Judges one exchange that passed through the proxy, with the suite's own rules and nothing new: the request
 * against the operation's request schema, parameters and security (a failure is the client's), the answer
 * against its documented responses and, for a stream, against the grammar its schema names, with the
 * reassembly its analyser checks (a failure is the server's). An exchange is judged against each contract
 * that has its operation.
 */
import { describeErrors, documentedResponse, isPublic, type Operation } from '../../contract/index.ts';
import type { Check, RunContext, Tester } from '../check.ts';
import { streamGrammar } from '../checks/streaming.ts';
import { usageAddsUp } from '../expectations.ts';
import type { Exchange } from '../http.ts';
import { checkStopReason } from '../rules/messages-stream.ts';
import { qualified, type Violation } from '../results.ts';
import { schemaLocation } from '../schema.ts';
import { CheckTester } from '../tester.ts';
import { undeclaredFields } from './fields.ts';
import type { Passed } from './forward.ts';

export type Side = 'client' | 'server';

/** What the judge found of one exchange against one contract: plain data, as it comes back from the judge's thread. */
export interface Judged {
  /** `ex-000042`: the exchange's number, as the proxy prints it. */
  id: string;
  contract: string;
  operationId: string;
  /** Where the operation is described: the vendor's page, or the gateway's docs. */
  docs?: string;
  /** The violations, each with the side that broke the rule. */
  violations: Array<Violation & { side: Side }>;
  /** Fields the request sent that the description lets through without naming them. */
  undeclared: string[];
  /** The exchange, kept only when it broke a rule. */
  exchange?: Exchange;
  /** A body was longer than the proxy keeps: that side was judged without it. */
  partial?: boolean;
}

interface Route {
  ctx: RunContext;
  op: Operation;
  pattern: RegExp;
}

/** A path template (`/v1/responses/{response_id}`) as a pattern its paths match. */
function pathPattern(template: string): RegExp {
  const literal = (part: string) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  return new RegExp(`^${template.split(/\{[^}]+\}/).map(literal).join('[^/]+')}$`);
}

/** How much of a kept exchange's answer a report holds: enough to show what was wrong. */
const KEEP_TEXT = 16 * 1024;

export class Judge {
  readonly #routes: Route[];

  /** @param contexts one per contract the traffic is judged against. */
  constructor(contexts: readonly RunContext[]) {
    this.#routes = contexts.flatMap((ctx) => ctx.contract.operations.map((op) => ({ ctx, op, pattern: pathPattern(op.path) })));
  }

  /** The operations (one per contract that has it) an exchange belongs to. */
  routes(method: string, url: string): Route[] {
    const path = url.split('?')[0]!;
    return this.#routes.filter((r) => r.op.method === method.toLowerCase() && r.pattern.test(path));
  }

  /** Judges an exchange against every contract that has its operation; none when no contract has it. */
  judge(passed: Passed, id: string, upstream: string): Judged[] {
    return this.routes(passed.method, passed.url).map(({ ctx, op }) => judgeOne(ctx, op, passed, id, upstream));
  }
}

function asExchange(passed: Passed, upstream: string): Exchange {
  const contentType = passed.responseHeaders['content-type'] ?? null;
  const text = passed.responseBody.toString('utf8');
  let json: unknown;
  if (contentType?.includes('json')) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  return {
    request: { method: passed.method, url: `${upstream.replace(/\/$/, '')}${passed.url}`, headers: passed.requestHeaders, body: passed.requestBody.subarray(0, 4096).toString('utf8'), bodyBytes: passed.requestBytes },
    ...(passed.status > 0 ? { response: { status: passed.status, headers: passed.responseHeaders, contentType, text, json } } : {}),
    ...(passed.error ? { error: passed.error } : {}),
    durationMs: passed.durationMs,
  };
}

function judgeOne(ctx: RunContext, op: Operation, passed: Passed, id: string, upstream: string): Judged {
  const exchange = asExchange(passed, upstream);
  const check = (rule: string): Check => ({ id: qualified(ctx.protocol.name, `${op.operationId}/traffic/${id}`), contract: ctx.protocol.name, operationId: op.operationId, family: 'traffic', title: id, rule, run: async () => {} });
  const client = new CheckTester(ctx, check('invalid-request'));
  const server = new CheckTester(ctx, check('documented-responses'));
  const { refused, body, undeclared } = judgeRequest(client, op, passed, exchange);
  if (exchange.response && !/client went away/.test(passed.error ?? '')) judgeAnswer(server, op, passed, exchange, refused, body);
  else if (!exchange.response && passed.error && !/client went away/.test(passed.error)) server.fail(`no answer: ${passed.error}`, 'documented-responses', exchange);
  // A kept exchange holds the start of its answer, not the whole of a long stream.
  if (exchange.response && exchange.response.text.length > KEEP_TEXT) exchange.response = { ...exchange.response, text: exchange.response.text.slice(0, KEEP_TEXT), json: undefined };
  const violations = [...once(client.violations, 'client'), ...once(server.violations, 'server')];
  const external = (op.raw as { externalDocs?: { url?: string } }).externalDocs?.url;
  const docs = external ?? (ctx.protocol.name === 'gateway' ? `${upstream.replace(/\/$/, '')}/docs#operation/${op.operationId}` : undefined);
  // Each violation holds the exchange too: they go with it, and a conforming exchange is not kept at all.
  const kept = violations.map(({ exchange: _exchange, ...v }) => v);
  return {
    id, contract: ctx.protocol.name, operationId: op.operationId, ...(docs ? { docs } : {}), undeclared, violations: kept,
    ...(violations.length > 0 ? { exchange } : {}), ...(passed.requestCut || passed.responseCut ? { partial: true } : {}),
  };
}

/**
 * One violation per rule and side: an exchange that breaks a rule at every event of its stream is reported
 * once for it, with how many times it did.
 */
function once(violations: readonly Violation[], side: Side): Array<Violation & { side: Side }> {
  const byRule = new Map<string, { first: Violation; times: number }>();
  for (const v of violations) {
    const key = v.ruleId ?? v.rule;
    const seen = byRule.get(key);
    if (seen) seen.times++;
    else byRule.set(key, { first: v, times: 1 });
  }
  return [...byRule.values()].map(({ first, times }) => ({ ...first, side, ...(times > 1 ? { message: `${first.message} (and ${times - 1} more like it)` } : {}) }));
}

/**
 * The request as its operation describes it: body, query, required headers, credentials. `refused`: what of it
 * the server must refuse (a body or query the contract refuses, no credentials), as the suite's own checks of
 * invalid requests and of authentication expect.
 */
function judgeRequest(t: CheckTester, op: Operation, passed: Passed, ex: Exchange): { refused: boolean; body: unknown; undeclared: string[] } {
  const contract = t.ctx.contract;
  let body: unknown;
  let undeclared: string[] = [];
  const before = t.violations.length;
  if (op.requestContentTypes.includes('application/json') && (passed.requestBytes > 0 || op.requestBodyRequired)) {
    const type = (passed.requestHeaders['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') t.fail(`the body is sent as ${type || 'no content type'}, not application/json`, 'invalid-request', ex);
    else if (passed.requestCut) {
      // Longer than the proxy keeps: judged without its body (the exchange is counted as judged in part).
    } else {
      try {
        body = JSON.parse(passed.requestBody.toString('utf8'));
        const { pointer, validate } = contract.requestBodyValidator(op.operationId);
        if (!validate(body)) t.fail(`body: ${describeErrors(validate.errors)}`, schemaLocation(pointer, validate.errors?.[0]?.schemaPath ?? ''), ex);
        undeclared = undeclaredFields(contract, op.raw.requestBody?.content['application/json']?.schema, body);
      } catch {
        t.fail('the body is not JSON', 'malformed-json', ex);
      }
    }
  }
  const query = Object.fromEntries(new URL(passed.url, 'http://x').searchParams);
  const parameters = contract.validateParameters(op.operationId, 'query', query);
  if (!parameters.ok) t.fail(parameters.message, `#${op.pointer}/parameters`, ex);
  const anonymous = !isPublic(op) && !carriesCredentials(t, op, passed.requestHeaders);
  if (anonymous) t.fail(`the request carries no credentials the operation accepts (${op.security.map((a) => a.join(' + ')).join(' or ')})`, 'authentication', ex);
  const refused = t.violations.length > before;
  // A header the client must send; a server may still answer without it.
  for (const [i, p] of op.parameters.entries()) {
    if (p.in === 'header' && p.required && passed.requestHeaders[p.name.toLowerCase()] === undefined) t.fail(`the required header ${p.name} is missing`, `#${op.pointer}/parameters/${i}`, ex);
  }
  return { refused, body, undeclared };
}

function carriesCredentials(t: Tester, op: Operation, headers: Record<string, string>): boolean {
  const schemes = t.ctx.contract.spec.components.securitySchemes ?? {};
  return op.security.some((alternative) =>
    alternative.every((name) => {
      const scheme = schemes[name];
      if (scheme?.type === 'apiKey' && scheme.in === 'header') return (headers[scheme.name!.toLowerCase()] ?? '') !== '';
      if (scheme?.type === 'http' && scheme.scheme?.toLowerCase() === 'bearer') return /^Bearer\s+\S/i.test(headers.authorization ?? '');
      return false;
    }),
  );
}

/** The answer as documented; a stream in its grammar; a JSON answer's usage and stop reason. */
function judgeAnswer(t: Tester, op: Operation, passed: Passed, ex: Exchange, refused: boolean, body: unknown): void {
  const status = ex.response!.status;
  // An answer longer than the proxy keeps is judged by its status alone.
  if (passed.responseCut) {
    if (!documentedResponse(op, status)) t.fail(`status ${status} is not documented for ${op.operationId}`, 'documented-responses', ex);
    return;
  }
  // Where the status of an error is a reference decision (the gateway's core), any documented-shape 4xx will do.
  t.shape(op, ex, { anyClientError: true });
  if (refused && status >= 200 && status < 300) {
    t.fail(`answered ${status} to a request the contract refuses (the client's violation above)`, 'invalid-request', ex);
  }
  if (status < 200 || status >= 300) return;
  const sse = ex.response!.contentType?.startsWith('text/event-stream');
  if (sse) {
    const found = streamGrammar(t.ctx, op);
    found?.grammar.analyse(t, ex, found.stream.eventPointer, body);
    return;
  }
  usageAddsUp(t, ex);
  const message = ex.response!.json as { type?: unknown; content?: Array<{ type?: unknown }>; stop_reason?: unknown; stop_sequence?: unknown } | undefined;
  if (message?.type === 'message') checkStopReason(t, message.content ?? [], message.stop_reason, message.stop_sequence, ex);
}
