/** The shape of one benchmark run, as written to `artifacts/bench.json` and rendered by `report.ts`. */
import type { ImageResult } from './images.ts';
import type { RoundsSummary } from './load.ts';
import type { Machine } from './machine.ts';
import type { ProxyResult } from './proxy.ts';
import type { ConcurrentStreamsResult } from './streams.ts';
import type { UpstreamResult } from './upstream.ts';

export type TargetName = 'reference' | 'bare' | 'prism';

export const targetLabels: Record<TargetName, string> = {
  reference: 'reference',
  bare: 'bare node:http',
  prism: 'Prism mock',
};

/** The median round's figures and the totals of the rounds (`summariseRounds`), and what HTTP loads add. */
export interface HttpFigure extends RoundsSummary {
  non2xx: number;
  /** Peak RSS of that target's process under this load. */
  rssPeakMb: number;
  /**
   * CPU time (user + system) the server's process spent per answered request, in µs: the median of the
   * rounds; null where the system has no /proc.
   */
  cpuUsPerRequest: number | null;
}

export interface HttpScenarioResult {
  /** `chat` sends a different request each time; `chat-repeated` the same one (answered from the engine's cache). */
  name: 'models' | 'chat' | 'chat-repeated';
  label: string;
  figures: Record<TargetName, HttpFigure>;
  /** reference / bare node:http and reference / Prism, in requests per second: the median of the rounds' ratios. */
  ratios: { bare: number; prism: number };
}

export type StoreName = 'memory' | 'sqlite' | 'postgres';

export const storeLabels: Record<StoreName, string> = {
  memory: 'memory',
  sqlite: 'SQLite',
  postgres: 'PostgreSQL',
};

/** One case of the quota path on one store: the median round, and what every round answered. */
export interface QuotaFigure extends RoundsSummary {
  /** Answers of each status over the warm-up and the rounds: all of them the case's status when it worked. */
  statuses: Record<string, number>;
  /** CPU time of the server's process per answered request, in µs (median round); null without /proc. */
  cpuUsPerRequest: number | null;
  /** The same of the database's own processes (PostgreSQL's); null for a store inside the server's process. */
  databaseCpuUsPerRequest: number | null;
}

export interface QuotaStoreResult {
  store: StoreName;
  /** Keys with quota left: each request is authenticated, reserves its image, and is painted (200). */
  granted: QuotaFigure;
  /** Keys with today's quota used up: each request is authenticated and its reservation refused (429). */
  refused: QuotaFigure;
  /** Peak RSS of that store's server process over the section. */
  rssPeakMb: number;
  /**
   * Read back from the store (the admin API) after the loads: the images counted over the granted keys,
   * which must lie between the 200 answers and the requests sent (a timed load stops with one request in
   * flight per connection, already counted by the server), and the spent keys whose count moved off their
   * quota (must be none).
   */
  check: { imagesCounted: number; answered200: number; sent: number; spentKeysChanged: number };
  /** What did not add up, in words (a wrong status, a count that differs, keys run out). */
  problems: string[];
}

export interface QuotaResult {
  size: string;
  connections: number;
  /** Seconds per case, store and round; or `amount` requests. */
  durationS?: number;
  amount?: number;
  rounds: number;
  stores: QuotaStoreResult[];
  /** PostgreSQL / SQLite in requests per second, each the median of the rounds' ratios. */
  ratios: { granted: number; refused: number };
}

export interface TargetVerdict {
  name: string;
  goal: string;
  measured: string;
  met: boolean;
}

export interface BenchResults {
  mode: 'full' | 'quick';
  startedAt: string;
  elapsedS: number;
  machine: Machine;
  /** Flags given to `node` for the reference servers (`--server-flags`); none as `npm start` runs it. */
  serverFlags: string[];
  /** Environment variables given to them (`npm start`'s); absent in results of older runs. */
  serverEnv?: Record<string, string>;
  /** The 1-minute load average when the run started and when it ended. */
  loadAverage: [number, number];
  settings: { httpConnections: number; httpDurationS: number; rounds: number; tokenDelayMs: number; maxTokens: number };
  http: HttpScenarioResult[];
  streams: {
    ttfe: { count: number; failures: number; problems: string[]; p50Ms: number; p99Ms: number; rssPeakMb: number };
    concurrent: ConcurrentStreamsResult & { rssPeakMb: number };
  };
  images: Array<ImageResult & { rssPeakMb: number }>;
  /** The quota-heavy path on each store; absent in results of older runs. */
  quota?: QuotaResult;
  conformance: {
    durationS: number;
    how: string;
    passed: number;
    failed: number;
    rssPeakMb: number;
  };
  /** What the validating proxy adds; absent in results of older runs. */
  proxy?: ProxyResult;
  /** What a gateway adds in front of a model's upstream: this one and Portkey's; absent in results of older runs. */
  upstream?: UpstreamResult;
  /** Of the reference server's processes (the main one, and the one the concurrent streams ran on). */
  memory: { startMb: number; peakMb: number };
  targets: TargetVerdict[];
}
