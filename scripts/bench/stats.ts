/** Percentiles, the ratios of rounds, and rounding for the tables. */

/** The p-th percentile (0–100) of samples, by the nearest-rank method; 0 when there are none. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return 0;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

export const median = (samples: readonly number[]): number => percentile(samples, 50);

/** A ratio of two servers measured round after round: the median of the rounds' ratios, and the lowest and highest. */
export interface RoundsRatio {
  median: number;
  low: number;
  high: number;
}

/**
 * a / b round by round, over the rounds in which both were measured. The two servers of a round ran seconds
 * apart, so the machine's load, which moves from minute to minute, moves both alike.
 *
 * @example
 *   ratioOfRounds([10, 12, 30], [10, 10, 10]) // { median: 1.2, low: 1, high: 3 }
 */
export function ratioOfRounds(a: ReadonlyArray<number | null>, b: ReadonlyArray<number | null>): RoundsRatio | null {
  const ratios = a.flatMap((x, i) => {
    const y = b[i];
    return x !== null && y !== null && y !== undefined && y > 0 ? [x / y] : [];
  });
  if (ratios.length === 0) return null;
  const sorted = ratios.sort((x, y) => x - y);
  return { median: median(sorted), low: sorted[0]!, high: sorted.at(-1)! };
}

/** A figure rounded to a sensible number of significant digits for a table. */
export function round(value: number): number {
  if (!Number.isFinite(value)) return value;
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : Math.abs(value) >= 1 ? 2 : 3;
  return Number(value.toFixed(digits));
}
