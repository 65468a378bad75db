/**
 * POST /v1/messages/count_tokens — the `input_tokens` the same request is billed on /v1/messages, counted by
 * the gateway's tokenizer, whatever the model's source (decision D27).
 */
import type { components } from '../../../generated/schema.d.ts';
import { toChatRequest } from '../client-protocols/anthropic-messages/request.ts';
import type { Handler } from '../context.ts';

type CountTokensRequest = components['schemas']['AnthropicCountTokensRequest'];
type TokenCount = components['schemas']['AnthropicTokenCount'];

export const countMessageTokens: Handler = async (request, reply, { catalogue, services }) => {
  const body = request.body as CountTokensRequest;
  const model = catalogue.modelFor(body.model, '/v1/messages', request.apiKey?.tier);
  const inputTokens = await services.text.countChatTokens(toChatRequest(body, model.id));
  return reply.send({ input_tokens: inputTokens } satisfies TokenCount);
};
