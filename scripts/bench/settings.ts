/**
 * How long and how hard each part of the benchmark runs: a full run measures; a quick run (`--quick`, for CI)
 * only shows that every measurement works, in seconds.
 */
export interface BenchSettings {
  mode: 'full' | 'quick';
  /** The servers side by side: seconds of warm-up and per round, and rounds (short turns, many, on a noisy host). */
  http: { connections: number; warmupS: number; durationS: number; rounds: number };
  /**
   * Streams read one after the other (time to first event); streams opened at once, each number in turn on one
   * server whose tokens come `tokenDelayMs` apart, so that `maxTokens` of them keep the streams open together.
   */
  streams: { sequential: number; concurrent: number[]; maxTokens: number; tokenDelayMs: number };
  images: { cases: Array<{ size: string; n: number }>; connections: number; durationS?: number; amount?: number };
  /** Ultimate keys the server issues for the image load (50 images a day each). */
  imageKeys: number;
  /**
   * The quota-heavy path on each store, the stores taking turns round after round. `amount` in the quick run:
   * autocannon would round a short duration up to a whole second. `keys` must cover every granted request on
   * the fastest store; `spentKeys` have today's quota used up.
   */
  quota: { connections: number; warmupS: number; durationS?: number; amount?: number; rounds: number; keys: number; spentKeys: number };
  /** The validating proxy: rounds, streams per round each side, and the listing's load. */
  proxy: { rounds: number; streams: number; connections: number; durationS: number };
  /** A model's upstream: requests one at a time each, and rounds of load. */
  upstream: { sequential: number; rounds: number; connections: number; durationS: number };
}

const imageCases: BenchSettings['images']['cases'] = ['512x512', '1024x1024'].flatMap((size) => [1, 4].map((n) => ({ size, n })));

export const fullSettings: BenchSettings = {
  mode: 'full',
  http: { connections: 16, warmupS: 2, durationS: 3, rounds: 5 },
  streams: { sequential: 200, concurrent: [1000], maxTokens: 64, tokenDelayMs: 40 },
  images: { cases: imageCases, connections: 1, durationS: 5 },
  imageKeys: 1000,
  quota: { connections: 16, warmupS: 1, durationS: 3, rounds: 3, keys: 1000, spentKeys: 200 },
  proxy: { rounds: 5, streams: 40, connections: 50, durationS: 3 },
  upstream: { sequential: 300, rounds: 5, connections: 50, durationS: 3 },
};

export const quickSettings: BenchSettings = {
  mode: 'quick',
  http: { connections: 8, warmupS: 0, durationS: 0.5, rounds: 1 },
  streams: { sequential: 10, concurrent: [100], maxTokens: 8, tokenDelayMs: 5 },
  images: { cases: imageCases, connections: 1, amount: 2 },
  imageKeys: 10,
  quota: { connections: 8, warmupS: 0, amount: 300, rounds: 1, keys: 100, spentKeys: 20 },
  proxy: { rounds: 1, streams: 5, connections: 8, durationS: 1 },
  upstream: { sequential: 10, rounds: 1, connections: 8, durationS: 1 },
};

/** The comparison of builds (`--baseline <ref>`): seconds of warm-up and per round, and rounds, for each kind. */
export interface CompareSettings {
  mode: 'full' | 'quick';
  connections: number;
  warmupS: number;
  durationS: number;
  rounds: number;
}

export const compareFullSettings: CompareSettings = { mode: 'full', connections: 50, warmupS: 2, durationS: 3, rounds: 5 };

export const compareQuickSettings: CompareSettings = { mode: 'quick', connections: 8, warmupS: 0, durationS: 0.5, rounds: 1 };
