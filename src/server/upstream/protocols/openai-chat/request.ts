/**
 * The gateway's chat request as an OpenAI Chat Completions request. The gateway's messages already are
 * chat messages, so they go as they are; the rest is renamed to the current API reference's fields.
 */
import type { ChatRequest } from '../../../domain/chat.ts';
import type { Json } from '../read.ts';
import type { UpstreamRequest } from '../types.ts';

/** OpenAI's reference for `stop`: "Up to 4 sequences where the API will stop generating further tokens". */
export const MAX_STOP_SEQUENCES = 4;

function responseFormat(format: ChatRequest['responseFormat']): Json | undefined {
  if (format?.type === 'json_object') return { type: 'json_object' };
  if (format?.type === 'json_schema') {
    return { type: 'json_schema', json_schema: { name: format.name, ...(format.schema !== undefined && { schema: format.schema }) } };
  }
  return undefined;
}

/**
 * `path` is relative to the catalogue's `base_url`, which for OpenAI ends in `/v1` (what its SDK takes).
 *
 * @example
 * toUpstream({ model: 'fast', messages: [{ role: 'user', content: 'Hi' }] }, 'gpt-4o-mini', true);
 * // { path: '/chat/completions', body: { model: 'gpt-4o-mini', messages: […], stream: true, stream_options: { include_usage: true } } }
 */
export function toUpstream(request: ChatRequest, model: string, stream: boolean): UpstreamRequest {
  const body: Json = { model, messages: request.messages };
  // Without include_usage a stream carries no usage, and billing would have to count the tokens itself.
  if (stream) Object.assign(body, { stream: true, stream_options: { include_usage: true } });
  // max_tokens is deprecated in the reference and refused by its reasoning models; max_completion_tokens is
  // the limit on the answer in every current model.
  if (request.maxTokens != null) body.max_completion_tokens = request.maxTokens;
  if (request.temperature != null) body.temperature = request.temperature;
  if (request.seed != null) body.seed = request.seed;
  // Stop sequences are the gateway's to keep (upstream/stop-sequences.ts); up to four go to the upstream as
  // well, so that it stops generating there instead of past them. More than four it cannot take: the
  // gateway alone keeps them then.
  const stops = request.stopSequences ?? [];
  if (stops.length > 0 && stops.length <= MAX_STOP_SEQUENCES) body.stop = [...stops];
  // OpenAI refuses tool_choice and parallel_tool_calls without tools: they are sent only with tools.
  const tools = request.tools ?? [];
  if (tools.length > 0) {
    body.tools = tools;
    if (request.toolChoice !== undefined) body.tool_choice = request.toolChoice;
    if (request.parallelToolCalls === false) body.parallel_tool_calls = false;
  }
  const format = responseFormat(request.responseFormat);
  if (format) body.response_format = format;
  return { path: '/chat/completions', body };
}
