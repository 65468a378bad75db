/**
 * A chat completion request in the gateway's terms (decision D17): what the route answers and what an
 * upstream is sent, read one way only.
 */
import type { components } from '../../../../generated/schema.d.ts';
import type { ChatRequest, ResponseFormat } from '../../domain/chat.ts';

type ChatCompletionRequest = components['schemas']['ChatCompletionRequest'];

/**
 * The gateway's chat request for a chat completion request; `model` is the catalogue's id for the model the
 * request names. The smaller of `max_tokens` and `max_completion_tokens` limits the answer.
 *
 * @example
 * toChatRequest({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] }, 'gpt-4o-mini');
 */
export function toChatRequest(body: ChatCompletionRequest, model: string): ChatRequest {
  const limits = [body.max_tokens, body.max_completion_tokens].filter((v): v is number => typeof v === 'number');
  return {
    model,
    messages: body.messages,
    temperature: body.temperature,
    seed: body.seed,
    maxTokens: limits.length > 0 ? Math.min(...limits) : null,
    tools: body.tools,
    toolChoice: body.tool_choice,
    parallelToolCalls: body.parallel_tool_calls ?? true,
    responseFormat: responseFormatOf(body.response_format),
  };
}

/** `response_format` in the gateway's terms (decision D29). */
function responseFormatOf(format: ChatCompletionRequest['response_format']): ResponseFormat | undefined {
  if (format?.type === 'json_schema') return { type: 'json_schema', name: format.json_schema.name, schema: format.json_schema.schema };
  if (format?.type === 'json_object') return { type: 'json_object' };
  return undefined;
}
