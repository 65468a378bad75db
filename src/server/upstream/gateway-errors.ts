/**
 * An upstream's failure as the gateway's answer to its client (decision D31): the gateway explains what went
 * wrong on its side, naming the model and the upstream (never the operator's key), with the status a client
 * can act on. The upstream's words are passed on where they are about the client's request.
 */
import { GatewayError, invalidRequest } from '../domain/errors.ts';
import { UpstreamError } from './errors.ts';

/** When an upstream that is rate-limited says nothing of when to come back. */
export const DEFAULT_RETRY_SECONDS = 5;
/** The longest wait passed on (the contract's bound on `Retry-After`). */
export const MAX_RETRY_SECONDS = 3600;

export interface UpstreamIdentity {
  /** The gateway's id of the model. */
  model: string;
  /** The upstream's origin (`https://api.openai.com`). */
  origin: string;
  /** The operator's key, taken out of anything the upstream says before the client sees it. */
  key?: string | undefined;
}

/**
 * The gateway's error for an upstream's failure, keeping that failure and a short account of it (without the
 * key): what a model's router (routing/) judges an attempt by, and tells of each when all failed.
 */
export class UpstreamFailed extends GatewayError {
  constructor(
    kind: GatewayError['kind'],
    message: string,
    retryAfterSeconds: number | undefined,
    readonly failure: UpstreamError,
    /** What happened, after the upstream's name: `cannot be reached (ECONNREFUSED)`, `answered 503: Overloaded`. */
    readonly account: string,
  ) {
    super(kind, message, retryAfterSeconds);
  }
}

/**
 * The gateway's error for an upstream's failure; any other error is returned as it is.
 *
 * @example
 *   throw asGatewayError(error, { model: 'gpt-4o', origin: 'https://api.openai.com', key });
 */
export function asGatewayError(error: unknown, upstream: UpstreamIdentity): unknown {
  if (!(error instanceof UpstreamError)) return error;
  const judged = explained(error, upstream);
  return new UpstreamFailed(judged.kind, judged.message, judged.retryAfterSeconds, error, accountOf(error, upstream));
}

/** What an upstream's failure was, in a few words after its name, the key taken out. */
function accountOf(error: UpstreamError, { origin, key }: UpstreamIdentity): string {
  if (error.failure === 'status') {
    const status = error.detail.status ?? 500;
    // The words of an upstream that refused the gateway's own key may quote it back: none are passed on.
    const words = status === 401 || status === 403 || error.detail.upstreamMessage === undefined ? '' : `: ${scrub(error.detail.upstreamMessage, key)}`;
    const wait = status === 429 && error.detail.retryAfter !== undefined ? ` (Retry-After ${error.detail.retryAfter} s)` : '';
    return `answered ${status}${wait}${words}`;
  }
  const prefix = `The upstream ${origin} `;
  const message = scrub(error.message, key).replace(/\.$/, '');
  return message.startsWith(prefix) ? message.slice(prefix.length) : message;
}

function explained(error: UpstreamError, upstream: UpstreamIdentity): GatewayError {
  const { model, origin } = upstream;
  const said = error.detail.upstreamMessage === undefined ? '' : `: ${scrub(error.detail.upstreamMessage, upstream.key)}`;
  const of = `The upstream of model '${model}' (${origin})`;
  switch (error.failure) {
    case 'unsupported':
      return invalidRequest(error.message);
    case 'timeout':
      return new GatewayError('gateway_timeout', `Model '${model}': ${error.message}`);
    case 'unreachable':
      return new GatewayError('bad_gateway', `Model '${model}': ${error.message}`);
    case 'malformed':
    case 'stream':
      return new GatewayError('bad_gateway', `${of} failed: ${scrub(error.message, upstream.key)}`);
    case 'status': {
      const status = error.detail.status ?? 500;
      if (status === 429) {
        return new GatewayError(
          'unavailable',
          `${of} is busy (it answered 429)${said}. This is not your key's quota; try again later.`,
          Math.min(error.detail.retryAfter ?? DEFAULT_RETRY_SECONDS, MAX_RETRY_SECONDS),
        );
      }
      // The operator's key is wrong or may not use the model: nothing the client can change.
      if (status === 401 || status === 403) return new GatewayError('bad_gateway', `${of} refused the gateway's own credentials (${status}); the gateway's operator must check them.`);
      if (status === 408) return new GatewayError('gateway_timeout', `${of} timed out (408)${said}.`);
      if (status >= 400 && status < 500) return invalidRequest(`${of} refused the request (${status})${said}`);
      return new GatewayError('bad_gateway', `${of} failed (${status})${said}.`);
    }
  }
}

/** `text` without the operator's key in it (an upstream may quote the key it was sent). */
function scrub(text: string, key: string | undefined): string {
  return key ? text.split(key).join('[the gateway\'s key]') : text;
}
