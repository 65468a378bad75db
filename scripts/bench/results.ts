/** The shape of one full or quick run, as written to `artifacts/bench.json` and rendered by `report.ts`. */
import type { HttpScenarioResult } from './http.ts';
import type { ImageResult } from './images.ts';
import type { RunHeader } from './machine.ts';
import type { ProxyResult } from './proxy.ts';
import type { QuotaResult } from './quota.ts';
import type { BenchSettings } from './settings.ts';
import type { StreamsResult } from './streams.ts';
import type { UpstreamResult } from './upstream.ts';

export interface TargetVerdict {
  name: string;
  goal: string;
  measured: string;
  met: boolean;
}

export interface BenchResults extends RunHeader {
  settings: BenchSettings;
  http: HttpScenarioResult[];
  streams: StreamsResult;
  images: Array<ImageResult & { rssPeakMb: number }>;
  quota: QuotaResult;
  proxy: ProxyResult;
  upstream: UpstreamResult;
  /** Of the reference server's processes (the main one, and the one the concurrent streams ran on). */
  memory: { startMb: number; peakMb: number };
  targets: TargetVerdict[];
}
