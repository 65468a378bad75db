/**
 * The one error the client's helpers throw for an answer of the gateway that is not a success: a non-2xx
 * status, an `{"error": …}` event inside a stream, or a stream that breaks the framing.
 */
import type { ErrorBody } from './types.ts';

export class GatewayError extends Error {
  /**
   * The HTTP status of the answer. An error that arrives inside a stream that had already begun keeps the
   * stream's status (200): the failure happened after the headers were sent.
   */
  readonly status: number;
  /** The parsed error body when there was one (`{"error": …}`, possibly with more fields). */
  readonly body: unknown;

  constructor(status: number, message: string, body?: unknown) {
    super(message);
    this.name = 'GatewayError';
    this.status = status;
    this.body = body;
  }

  /**
   * Builds the error from a non-2xx answer's body as openapi-fetch returns it (parsed JSON, or text when
   * the body was not JSON, for example a proxy's HTML page).
   *
   * @example
   *   const { error, response } = await client.GET('/v1/models');
   *   if (error) throw GatewayError.from(response.status, error);
   */
  static from(status: number, body: unknown): GatewayError {
    if (isErrorBody(body)) return new GatewayError(status, body.error, body);
    const text = typeof body === 'string' ? body.trim().slice(0, 200) : '';
    return new GatewayError(status, text || `The gateway answered HTTP ${status}.`, body);
  }
}

/** True when `value` has the contract's error shape, `{"error": "<message>"}`. */
export function isErrorBody(value: unknown): value is ErrorBody {
  return typeof value === 'object' && value !== null && typeof (value as { error?: unknown }).error === 'string';
}
