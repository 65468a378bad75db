/**
 * The errors the domain raises (catalogue, tiers, keys, quota, engines): what went wrong, in words a caller
 * can act on, and of which kind. The domain knows nothing of HTTP: the one error handler
 * (`http/error-handler.ts`) turns each kind into a status and the contract's error body.
 */

export type ErrorKind =
  /** The request is well-formed JSON but cannot be served as asked (400). */
  | 'invalid_request'
  /** No credential, or one that is not valid (401). */
  | 'authentication'
  /** A valid credential that may not do this (403). */
  | 'permission'
  /** What the request names does not exist (404). */
  | 'not_found'
  /** The request is larger than the server takes (413). */
  | 'too_large'
  /** A limit of the caller's is used up (429). */
  | 'rate_limit'
  /** The server cannot take the request now: busy, shutting down, or a model's upstream is (503). */
  | 'unavailable'
  /** A model's upstream failed: unreachable, an error of its own, an answer that is not its protocol (502). */
  | 'bad_gateway'
  /** A model's upstream did not answer in time: to connect, to begin, between two events (504). */
  | 'gateway_timeout';

export class GatewayError extends Error {
  override readonly name: string = 'GatewayError';

  constructor(
    readonly kind: ErrorKind,
    message: string,
    /** When to try again, in seconds, for a limit that passes (`Retry-After`). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** What is left of a key's daily image quota (decisions D5–D7). */
export interface QuotaState {
  /** Images a day for the key's tier. */
  limit: number;
  remaining: number;
  /** Seconds until the quota resets (midnight UTC). */
  resetSeconds: number;
}

/** The daily image quota cannot cover the request: `Daily quota exceeded.`, with the quota's figures. */
export class QuotaExceeded extends GatewayError {
  constructor(readonly quota: QuotaState) {
    super('rate_limit', 'Daily quota exceeded.', quota.resetSeconds);
  }
}

/**
 * @example
 * throw invalidRequest("Size '300x300' is not supported.");
 */
export function invalidRequest(message: string): GatewayError {
  return new GatewayError('invalid_request', message);
}

/**
 * @example
 * throw tooLarge('Request body holds more than 50,000 JSON values …');
 */
export function tooLarge(message: string): GatewayError {
  return new GatewayError('too_large', message);
}

export function notFound(message: string): GatewayError {
  return new GatewayError('not_found', message);
}

export function forbidden(message: string): GatewayError {
  return new GatewayError('permission', message);
}

export function unauthenticated(message: string): GatewayError {
  return new GatewayError('authentication', message);
}

/**
 * @example
 * throw unavailable('The server is busy with other image requests; try again in 1 second.', 1);
 */
export function unavailable(message: string, retryAfterSeconds: number): GatewayError {
  return new GatewayError('unavailable', message, retryAfterSeconds);
}

/** The server is closing: requests still arriving on open connections are sent elsewhere (decision D23). */
export function shuttingDown(): GatewayError {
  return unavailable('The server is shutting down; try again in 1 second.', 1);
}

/** A limit that passes, such as sign-in attempts per address. */
export function tooManyRequests(message: string, retryAfterSeconds: number): GatewayError {
  return new GatewayError('rate_limit', message, retryAfterSeconds);
}
