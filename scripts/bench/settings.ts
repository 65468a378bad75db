/**
 * How long and how hard each part of the benchmark runs: the full run (`npm run bench`) measures; the quick
 * run (`--quick`, for CI) only shows that every measurement works, in a few seconds.
 */
import type { ImageCase } from './images.ts';
import type { ProxySettings } from './proxy.ts';
import type { UpstreamSettings } from './upstream.ts';

export interface BenchSettings {
  mode: 'full' | 'quick';
  http: {
    connections: number;
    /** Seconds of load per target and request before measuring (JIT, connection set-up). */
    warmupS: number;
    durationS: number;
    /**
     * The servers take turns this many times; each figure is the median round, each ratio the median of
     * the rounds' ratios (shared, noisy machines: short turns, many of them).
     */
    rounds: number;
  };
  streams: {
    /** Streams read one after the other for the time to first event. */
    sequential: number;
    /** Streams open at once. */
    concurrent: number;
    /**
     * Tokens per answer, and the delay between them of the server the concurrent streams run on: together
     * they keep the streams open long enough to overlap. (The time to first event is measured on the main
     * server, without delay, as it runs by default.)
     */
    maxTokens: number;
    tokenDelayMs: number;
  };
  images: {
    cases: ImageCase[];
    connections: number;
    durationS?: number;
    amount?: number;
  };
  /** Ultimate keys the server issues for the image load (50 images a day each). */
  imageKeys: number;
  /**
   * The quota-heavy path on each store: image requests of the smallest size, n = 1, so that authentication
   * and the quota's reservation weigh as much as they can against painting. The stores take turns, round
   * after round, as the servers of the HTTP figures do.
   */
  quota: {
    connections: number;
    warmupS: number;
    /**
     * Seconds per case, store and round; or `amount` requests (the quick run: autocannon would round a
     * short duration up to a whole second, six times over).
     */
    durationS?: number;
    amount?: number;
    rounds: number;
    /**
     * Ultimate keys each store's server issues for the granted load: their 50 images a day each must cover
     * every request of the warm-up and the rounds on the fastest store.
     */
    keys: number;
    /** Ultimate keys with today's quota used up, for the refused load. */
    spentKeys: number;
  };
  /** The validating proxy (`gateway-conformance proxy`) in front of the reference, against it directly. */
  proxy: ProxySettings;
  /** A model's upstream (a reference server) asked directly, through this gateway and through Portkey's. */
  upstream: UpstreamSettings;
}

const imageCases: ImageCase[] = [
  { size: '512x512', n: 1 },
  { size: '512x512', n: 4 },
  { size: '1024x1024', n: 1 },
  { size: '1024x1024', n: 4 },
];

export const fullSettings: BenchSettings = {
  mode: 'full',
  http: { connections: 16, warmupS: 2, durationS: 3, rounds: 5 },
  streams: { sequential: 200, concurrent: 1000, maxTokens: 64, tokenDelayMs: 40 },
  images: { cases: imageCases, connections: 1, durationS: 5 },
  imageKeys: 1000,
  quota: { connections: 16, warmupS: 1, durationS: 3, rounds: 3, keys: 1000, spentKeys: 200 },
  proxy: { rounds: 5, streams: 40, connections: 50, durationS: 3 },
  upstream: { sequential: 300, rounds: 5, connections: 50, durationS: 3 },
};

export const quickSettings: BenchSettings = {
  mode: 'quick',
  http: { connections: 8, warmupS: 0, durationS: 0.5, rounds: 1 },
  streams: { sequential: 10, concurrent: 100, maxTokens: 8, tokenDelayMs: 5 },
  images: { cases: imageCases, connections: 1, amount: 2 },
  imageKeys: 10,
  quota: { connections: 8, warmupS: 0, amount: 300, rounds: 1, keys: 100, spentKeys: 20 },
  proxy: { rounds: 1, streams: 5, connections: 8, durationS: 1 },
  upstream: { sequential: 10, rounds: 1, connections: 8, durationS: 1 },
};
