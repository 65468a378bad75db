/**
 * One load run with autocannon on loopback. Rates and latency percentiles are computed here from every
 * response: autocannon's histogram keeps whole milliseconds only, and its duration runs to its next
 * one-second tick, which matters for short runs.
 */
import autocannon, { type Request } from 'autocannon';
import { percentile } from './stats.ts';

export interface LoadSpec {
  method: 'GET' | 'POST';
  /** Path and query, e.g. `/v1/models`. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Replace each `[<id>]` in the body with a fresh random id (33 characters), so no two requests are the same. */
  idReplacement?: boolean;
  /** Lets each request change itself (the image load picks a key with quota left). */
  setupRequest?: Request['setupRequest'];
  /** The status whose answers' latencies are measured (the quota path's refusals: 429); any 2xx by default. */
  expectStatus?: number;
}

export interface LoadOptions {
  connections: number;
  /** Seconds to run; or `amount` requests. */
  durationS?: number;
  amount?: number;
}

export interface LoadResult {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers per second, from the first request sent to the last answer. */
  rps: number;
  /** Connection errors and timeouts. */
  errors: number;
  /** How many of each kind of error (`ECONNRESET`, `request timed out`, …). */
  errorKinds: Record<string, number>;
  /** Answers whose status was not 2xx. */
  non2xx: number;
  /** How many answers of each status. */
  statuses: Record<string, number>;
  durationS: number;
}

/**
 * Runs `spec` against `baseUrl`.
 *
 * @example
 *   const r = await runLoad('http://127.0.0.1:8080', { method: 'GET', path: '/v1/models', headers: {} }, { connections: 16, durationS: 5 });
 *   console.log(r.rps, r.p99Ms);
 */
export async function runLoad(baseUrl: string, spec: LoadSpec, options: LoadOptions): Promise<LoadResult> {
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  const measured = (status: number) => (spec.expectStatus === undefined ? status >= 200 && status < 300 : status === spec.expectStatus);
  let responses = 0;
  let last = 0;
  const first = performance.now();
  const instance = autocannon({
    url: `${baseUrl}${spec.path}`,
    connections: options.connections,
    ...(options.amount !== undefined ? { amount: options.amount } : { duration: options.durationS ?? 5 }),
    timeout: 30,
    method: spec.method,
    headers: spec.headers,
    ...(spec.body !== undefined && { body: spec.body }),
    ...(spec.idReplacement && { idReplacement: true }),
    ...(spec.setupRequest && { requests: [{ setupRequest: spec.setupRequest }] }),
  });
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    responses++;
    last = performance.now();
    statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    if (measured(statusCode)) times.push(responseTime);
  });
  const errorKinds: Record<string, number> = {};
  instance.on('reqError', (error: Error & { code?: string }) => {
    const kind = error.code ?? error.message;
    errorKinds[kind] = (errorKinds[kind] ?? 0) + 1;
  });
  const result = await instance;
  const durationS = (last - first) / 1000;
  return {
    requests: responses,
    rps: durationS > 0 ? responses / durationS : 0,
    p50Ms: percentile(times, 50),
    p99Ms: percentile(times, 99),
    errors: result.errors,
    errorKinds,
    non2xx: result.non2xx,
    statuses,
    durationS,
  };
}

/** What a run of several rounds of one load says: the median round's figures, and the totals of all. */
export interface RoundsSummary {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Requests of the rounds (not of a warm-up). */
  requests: number;
  errors: number;
  /** How many of each kind of error, over all rounds. */
  errorKinds: Record<string, number>;
  /** Requests per second of every round; the figure is the median round. */
  roundsRps: number[];
}

/**
 * The median round (by requests per second) and the totals of the rounds, as every section reports them.
 *
 * @example
 *   const { rps, p99Ms, errors } = summariseRounds(rounds);
 */
export function summariseRounds(rounds: readonly LoadResult[]): RoundsSummary {
  const median = [...rounds].sort((a, b) => a.rps - b.rps)[Math.floor((rounds.length - 1) / 2)]!;
  const errorKinds: Record<string, number> = {};
  for (const r of rounds) for (const [kind, n] of Object.entries(r.errorKinds)) errorKinds[kind] = (errorKinds[kind] ?? 0) + n;
  return {
    rps: median.rps,
    p50Ms: median.p50Ms,
    p99Ms: median.p99Ms,
    requests: rounds.reduce((n, r) => n + r.requests, 0),
    errors: rounds.reduce((n, r) => n + r.errors, 0),
    errorKinds,
    roundsRps: rounds.map((r) => r.rps),
  };
}
