/**
 * `startProxy(options)`: a validating proxy between any client and any implementation. It forwards every
 * exchange unchanged (forward.ts) and, once an exchange is over, judges it in a thread of its own against the
 * chosen contracts with the suite's own rules (judge.ts, judge-worker.ts), telling who broke each rule, the
 * client or the server; it keeps what it saw in bounded memory (ledger.ts), and writes it as the suite's reports.
 */
import type { ContractName } from '../../contract/index.ts';
import { startModuleWorker, workerBeside } from '../../lib/module-worker.ts';
import type { ProfileName } from '../profiles.ts';
import type { Report } from '../results.ts';
import { startForwarder, type Passed } from './forward.ts';
import type { Judged } from './judge.ts';
import type { JudgeRequest, JudgeSettings } from './judge-worker.ts';
import { TrafficLedger } from './ledger.ts';

/**
 * Exchanges waiting for the judge, at most: beyond, an exchange is forwarded and counted, not judged, so that
 * a judge that falls behind a flood of traffic never makes the proxy's memory grow without bound.
 */
const MAX_WAITING = 256;

export interface ProxyOptions {
  /** The implementation's root, e.g. `http://127.0.0.1:8080`. */
  upstream: string;
  /** Where the proxy listens: loopback unless said otherwise (a proxy open to all is an open relay). */
  host?: string;
  port?: number;
  contracts?: ContractName[];
  profile?: ProfileName;
  /** Headers added to every forwarded request (a gateway's routing headers). */
  headers?: Record<string, string>;
  /** Violating exchanges kept whole for the reports (the rest are counted). */
  keep?: number;
  /** Called for each exchange once judged: the violations it found (an empty list when it conformed). */
  onJudged?: (judged: readonly Judged[]) => void;
}

export interface Proxy {
  baseUrl: string;
  readonly ledger: TrafficLedger;
  /** Everything seen so far, as a report. */
  report(): Report;
  /** Judgements still to come of exchanges that have ended: wait for them before reading the report. */
  settled(): Promise<void>;
  close(graceMs?: number): Promise<void>;
}

/**
 * @example
 * const proxy = await startProxy({ upstream: 'http://127.0.0.1:8080', contracts: ['openai'] });
 * // point a client at proxy.baseUrl, then:
 * await proxy.settled(); formatReport(proxy.report());
 */
export async function startProxy(options: ProxyOptions): Promise<Proxy> {
  const names = options.contracts?.length ? [...new Set(options.contracts)] : (['gateway'] as ContractName[]);
  const profile = options.profile ?? 'core';
  const settings: JudgeSettings = { contracts: names, profile, upstream: options.upstream };
  const judge = startModuleWorker(workerBeside(import.meta.url, 'judge-worker'), settings);
  const ledger = new TrafficLedger(options.keep ?? 100);
  const started = Date.now();
  let count = 0;
  let pending = 0;
  let idle: Array<() => void> = [];
  const done = () => {
    if (--pending === 0) for (const resolve of idle.splice(0)) resolve();
  };
  judge.on('message', ({ judged }: { judged: Judged[] }) => {
    try {
      if (judged.length === 0) ledger.unmatched();
      else ledger.record(judged);
      options.onJudged?.(judged);
    } finally {
      done();
    }
  });
  const failed = new Promise<never>((_, reject) => judge.once('error', reject));
  failed.catch(() => {});
  const forwarder = await startForwarder({
    upstream: options.upstream,
    ...(options.host ? { host: options.host } : {}),
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
    onExchange(passed: Passed) {
      const id = `ex-${String(++count).padStart(6, '0')}`;
      if (pending >= MAX_WAITING) return ledger.unjudged();
      pending++;
      // Judged in its own thread, once the answer has gone out: off the path of the bytes.
      const request: JudgeRequest = { id, passed };
      // Copied, not transferred: a small Buffer shares its memory with others (Node's pool).
      judge.postMessage(request);
    },
  });
  return {
    baseUrl: forwarder.baseUrl,
    ledger,
    report: () => ledger.report({ baseUrl: options.upstream, contracts: names, profile, startedAt: new Date(started).toISOString(), durationMs: Date.now() - started }),
    settled: () => (pending === 0 ? Promise.resolve() : Promise.race([new Promise<void>((resolve) => idle.push(resolve)), failed])),
    async close(graceMs) {
      await forwarder.close(graceMs);
      if (pending > 0) await Promise.race([new Promise<void>((resolve) => idle.push(resolve)), failed]);
      idle = [];
      await judge.terminate();
    },
  };
}
