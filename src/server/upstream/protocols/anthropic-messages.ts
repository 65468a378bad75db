/**
 * Anthropic Messages (`POST {base_url}/v1/messages`) as an upstream: the request, the whole answer and the
 * stream, each in its own file under anthropic-messages/.
 */
export { toUpstream, DEFAULT_MAX_TOKENS } from './anthropic-messages/request.ts';
export { fromUpstream } from './anthropic-messages/answer.ts';
export { eventsFrom } from './anthropic-messages/events.ts';
