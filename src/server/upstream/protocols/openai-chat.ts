/**
 * OpenAI Chat Completions (`POST {base_url}/chat/completions`) as an upstream: the request, the whole
 * answer and the stream, each in its own file under openai-chat/.
 */
export { toUpstream, MAX_STOP_SEQUENCES } from './openai-chat/request.ts';
export { fromUpstream } from './openai-chat/answer.ts';
export { eventsFrom } from './openai-chat/events.ts';
