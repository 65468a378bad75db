/**
 * How the services learn that the client they work for went away: a route hands them its request's
 * abandonment (http/abandoned.ts), and work that can be let go (an upstream's request) reads its signal.
 */

/** `signal` is aborted when the client went away before its answer was whole; it is made when first read. */
export interface Abandonment {
  readonly signal: AbortSignal;
}
