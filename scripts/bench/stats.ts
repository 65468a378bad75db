/** Percentiles of latency samples, and rounding for the report. */

/**
 * The p-th percentile (0–100) of samples, by the nearest-rank method; 0 when there are none.
 *
 * @example
 *   percentile([3, 1, 2, 4], 50) // 2
 */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return 0;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

/** A figure rounded to a sensible number of significant digits for a table. */
export function round(value: number): number {
  if (!Number.isFinite(value)) return value;
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : Math.abs(value) >= 1 ? 2 : 3;
  return Number(value.toFixed(digits));
}

/** A count in thousands, as the tables show instructions: 412_345 → `412k`; undefined → `–`. */
export function thousands(n: number | undefined): string {
  return n === undefined ? '–' : `${Math.round(n / 1000).toLocaleString('en-US')}k`;
}
