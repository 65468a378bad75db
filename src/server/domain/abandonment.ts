/**
 * What the services know of the client they work for: a route hands them its request's abandonment
 * (http/abandoned.ts); work that can be let go (an upstream's request) reads its signal, and a model's router
 * tells through it which upstream answered (decision D40), for the answer's headers.
 */

/** `signal` is aborted when the client went away before its answer was whole; it is made when first read. */
export interface Abandonment {
  readonly signal: AbortSignal;
  /** Told, once, which of a model's upstreams served the request and after how many attempts; absent where nobody asks. */
  routed?(route: UpstreamRoute): void;
}

/** Which upstream served a request routed between a model's upstreams (none when all failed), and the attempts made. */
export interface UpstreamRoute {
  upstream: string | undefined;
  attempts: number;
}
