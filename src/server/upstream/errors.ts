/**
 * What can go wrong with an upstream model, in the upstream's terms: the gateway turns each into its own
 * answer (its status, its message, never the upstream's key) where the request is handled.
 */
export type UpstreamFailure =
  /** No connection could be made (refused, DNS, TLS). */
  | 'unreachable'
  /** No connection, no first byte, or silence between events within the configured time. */
  | 'timeout'
  /** The upstream answered an error status (`status`, its `message` when it gave one, `retryAfter` seconds). */
  | 'status'
  /** What it sent is not its protocol (a body that is not JSON, an event that cannot be read). */
  | 'malformed'
  /** Its stream carried an error event, or was cut before its end. */
  | 'stream'
  /** The client asked for something the upstream's protocol cannot do (a 400 for the client). */
  | 'unsupported';

export class UpstreamError extends Error {
  constructor(
    readonly failure: UpstreamFailure,
    message: string,
    readonly detail: { status?: number; upstreamMessage?: string; retryAfter?: number } = {},
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}
