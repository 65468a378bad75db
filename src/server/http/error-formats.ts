/**
 * The shapes an error body takes. The gateway's own operations answer `{"error": message}` (the interface
 * specification's "Errors"); the Anthropic Messages operations answer Anthropic's
 * `{"type": "error", "error": {"type", "message"}}` with the same message (decision D27), because that is what
 * Anthropic's clients read. Which shape an operation uses is what its contract says: the schema of its
 * documented error answers.
 */
import type { Operation } from '../../contract/index.ts';

/** The body of an error answer with this status and message. */
export type ErrorFormat = (status: number, message: string) => unknown;

/** The contract's error body (the interface specification's "Errors"). */
export function errorBody(message: string): { error: string } {
  return { error: message };
}

/** `{"error": message}`: every operation of the gateway's own, and anything outside an operation. */
export const gatewayErrors: ErrorFormat = (_status, message) => errorBody(message);

/** Anthropic's error type for each status (https://docs.anthropic.com/en/api/errors). */
export function anthropicType(status: number): string {
  switch (status) {
    case 401:
      return 'authentication_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 503:
      return 'overloaded_error';
    case 504:
      return 'timeout_error';
    default:
      return status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}

export const anthropicErrors: ErrorFormat = (status, message) => ({ type: 'error', error: { type: anthropicType(status), message } });

/** The schema the contract names for Anthropic's error body. */
const ANTHROPIC_ERROR_SCHEMA = '#/components/schemas/AnthropicError';

/** The named schema an answer's schema is, or extends (`allOf: [{$ref}]`, with the fixed `error.type` of its status). */
function namedSchema(schema: { $ref?: string; allOf?: Array<{ $ref?: string }> } | undefined): string | undefined {
  return schema?.$ref ?? schema?.allOf?.find((member) => member.$ref)?.$ref;
}

/**
 * The error shape an operation's description declares: Anthropic's when its 4xx answers are documented with
 * the `AnthropicError` schema, the gateway's otherwise.
 *
 * @example
 * errorFormatOf(contract.operation('createMessage')); // anthropicErrors
 */
export function errorFormatOf(op: Operation): ErrorFormat {
  const declared = Object.entries(op.responses)
    .filter(([status]) => status.startsWith('4'))
    .map(([, response]) => namedSchema(response.content?.['application/json']?.schema as Parameters<typeof namedSchema>[0]));
  return declared.length > 0 && declared.every((ref) => ref === ANTHROPIC_ERROR_SCHEMA) ? anthropicErrors : gatewayErrors;
}

