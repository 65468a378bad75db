/**
 * The upstream errors a protocol module throws, worded the same way for every protocol: each names the
 * upstream protocol, so that the gateway's answer says which side could not go on.
 */
import { UpstreamError } from '../errors.ts';

/**
 * The client asked for something the upstream's protocol cannot do: `sentence` says what, naming the field,
 * and what the client can do instead (the gateway answers 400 with it).
 *
 * @example
 * throw unsupported('Anthropic Messages', 'its temperature ranges from 0 to 1 and the request asks for 1.5. Send a temperature between 0 and 1.');
 * // "This model's upstream speaks Anthropic Messages, which cannot take the request: its temperature ranges …"
 */
export function unsupported(protocol: string, sentence: string): UpstreamError {
  return new UpstreamError('unsupported', `This model's upstream speaks ${protocol}, which cannot take the request: ${sentence}`);
}

/** What the upstream sent is not its protocol's answer or event. */
export function malformed(protocol: string, what: string): UpstreamError {
  return new UpstreamError('malformed', `The ${protocol} upstream sent ${what}.`);
}

/** The upstream reported a failure in its answer (an error event, a failed response). */
export function upstreamFailed(protocol: string, upstreamMessage: string): UpstreamError {
  return new UpstreamError('stream', `The ${protocol} upstream failed while answering: ${upstreamMessage}`, { upstreamMessage });
}

/** The stream ended before the event that ends an answer. */
export function cut(protocol: string, endEvent: string): UpstreamError {
  return new UpstreamError('stream', `The ${protocol} upstream's stream ended before its ${endEvent}: the answer is incomplete.`);
}
