/** The shape of one benchmark run, as written to `artifacts/bench.json` and rendered by `report.ts`. */
import type { ImageResult } from './images.ts';
import type { Machine } from './machine.ts';
import type { ConcurrentStreamsResult } from './streams.ts';

export type TargetName = 'reference' | 'bare' | 'prism';

export const targetLabels: Record<TargetName, string> = {
  reference: 'reference',
  bare: 'bare node:http',
  prism: 'Prism mock',
};

export interface HttpFigure {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  errors: number;
  /** How many of each kind of error, over all rounds. */
  errorKinds: Record<string, number>;
  non2xx: number;
  /** Peak RSS of that target's process under this load. */
  rssPeakMb: number;
  /**
   * CPU time (user + system) the server's process spent per answered request, in µs: the median of the
   * rounds; null where the system has no /proc.
   */
  cpuUsPerRequest: number | null;
  /** Requests per second of every round; the figure is the median round. */
  roundsRps: number[];
}

export interface HttpScenarioResult {
  /** `chat` sends a different request each time; `chat-repeated` the same one (answered from the engine's cache). */
  name: 'models' | 'chat' | 'chat-repeated';
  label: string;
  figures: Record<TargetName, HttpFigure>;
  /** reference / bare node:http and reference / Prism, in requests per second: the median of the rounds' ratios. */
  ratios: { bare: number; prism: number };
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
  conformance: {
    durationS: number;
    how: string;
    passed: number;
    failed: number;
    rssPeakMb: number;
  };
  /** Of the reference server's processes (the main one, and the one the concurrent streams ran on). */
  memory: { startMb: number; peakMb: number };
  targets: TargetVerdict[];
}
