/** The quota day: a UTC calendar day, reset at midnight UTC (decision D6). */

/** `YYYY-MM-DD` of the UTC day that contains `now`. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** Whole seconds until the next midnight UTC, at least 1 (the value of `Retry-After`). */
export function secondsUntilUtcMidnight(now: Date): number {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((midnight - now.getTime()) / 1000));
}
