/**
 * OpenAI's image API (`POST {base_url}/images/generations` and `/images/edits`) as an upstream: the two
 * requests, and the pictures read back from the answer, each in its own file under openai-images/.
 */
export { generationRequest, editForm, type ImageOrder } from './openai-images/request.ts';
export { imagesFrom } from './openai-images/answer.ts';
