/**
 * OpenAI Responses (`POST {base_url}/responses`) as an upstream: the request, the whole answer and the
 * stream, each in its own file under openai-responses/.
 */
export { toUpstream } from './openai-responses/request.ts';
export { fromUpstream } from './openai-responses/answer.ts';
export { eventsFrom } from './openai-responses/events.ts';
