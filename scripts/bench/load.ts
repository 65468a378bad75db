/**
 * One load run with autocannon on loopback. Rates and latency percentiles are computed here from every
 * response: autocannon's histogram keeps whole milliseconds only, and its duration runs to its next one-second
 * tick, which matters for short runs.
 */
import autocannon, { type Request } from 'autocannon';
import { percentile } from './stats.ts';

export interface LoadSpec {
  method: 'GET' | 'POST';
  /** Path and query, e.g. `/v1/models`. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Replace each `[<id>]` in the body with a fresh random id, so that no two requests are the same. */
  idReplacement?: boolean;
  /** Lets each request change itself (a new prompt, a key with quota left). */
  setupRequest?: Request['setupRequest'];
  /** The status whose answers' latencies are measured (the quota path's refusals: 429); any 2xx by default. */
  expectStatus?: number;
}

export interface LoadResult {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers per second, from the first request sent to the last answer. */
  rps: number;
  /** Connection errors and timeouts, and how many of each kind (`ECONNRESET`, …). */
  errors: number;
  errorKinds: Record<string, number>;
  non2xx: number;
  /** How many answers of each status. */
  statuses: Record<string, number>;
  durationS: number;
}

export async function runLoad(baseUrl: string, spec: LoadSpec, options: { connections: number; durationS?: number; amount?: number }): Promise<LoadResult> {
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  const errorKinds: Record<string, number> = {};
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
