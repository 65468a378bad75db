/**
 * The HTTP server's time limits (decision D25): a client that sends slowly, or not at all, cannot keep a
 * connection, or the memory of a half-received body, for longer than these. Each has an environment variable
 * (see config.ts).
 */
export interface Timeouts {
  /** Time to receive the request line and headers (408 after). */
  headersMs: number;
  /** Time to receive the whole request, body included (408 after). */
  requestMs: number;
  /** A connection on which nothing is sent or received for this long is closed (a stalled upload, a reader that stopped reading). */
  idleMs: number;
  /** How long a kept-alive connection waits for its next request. */
  keepAliveMs: number;
}

export const defaultTimeouts: Timeouts = { headersMs: 10_000, requestMs: 60_000, idleMs: 120_000, keepAliveMs: 5_000 };

/** The part of Fastify's options that applies them. */
export function serverTimeouts(t: Timeouts) {
  return {
    requestTimeout: t.requestMs,
    keepAliveTimeout: t.keepAliveMs,
    connectionTimeout: t.idleMs,
    http: {
      headersTimeout: Math.min(t.headersMs, t.requestMs),
      // Node checks the two limits above on this period (30 s by default): a limit is kept within a second.
      connectionsCheckingInterval: Math.min(1_000, t.headersMs),
    },
  };
}
