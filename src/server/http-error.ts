/**
 * The one error class of the server: anything thrown as an `HttpError` becomes its status and the
 * contract's `{"error": message}` body. Everything else is logged and answers 500.
 */
export class HttpError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.headers = headers;
  }

  /** The contract's error body. */
  toJSON(): { error: string } {
    return { error: this.message };
  }
}
