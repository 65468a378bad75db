/**
 * POST /v1/responses — OpenAI Responses (decision D29), on the chat endpoint's engine: JSON, or an event
 * stream whose deltas add up to exactly the JSON answer. Kept for the key unless `store` is false.
 */
import type { components } from '../../../generated/schema.d.ts';
import { modelFor } from '../domain/catalogue.ts';
import { keepResponse, previousConversation } from '../domain/responses.ts';
import { billingHeaders } from '../http/responses.ts';
import { sendEvents } from '../http/sse.ts';
import { newId } from '../ids.ts';
import { inputItems, toChatRequest } from '../openai-responses/conversation.ts';
import { responseEvents, toResponse } from '../openai-responses/response.ts';
import type { Handler } from '../context.ts';

type ResponseRequest = components['schemas']['ResponseRequest'];

export const createResponse: Handler = async (request, reply, { services, store, now, tokenDelayMs }) => {
  const body = request.body as ResponseRequest;
  const key = request.apiKey!;
  const model = modelFor(body.model, '/v1/responses', key.tier);
  const at = now();
  const history = body.previous_response_id ? await previousConversation(store, body.previous_response_id, key.id, at) : [];
  const answer = await services.text.answerChat({ ...toChatRequest(body, history), model: model.id });
  const response = toResponse(answer, body, { id: newId('resp_'), createdAt: Math.floor(at.getTime() / 1000), model: model.id, newId });
  if (body.store !== false) {
    const items = [...history, ...inputItems(body.input), ...response.output];
    await keepResponse(store, { id: response.id, keyId: key.id, createdAt: at.toISOString(), response, items }, at);
  }
  reply.headers(billingHeaders(model, answer.promptTokens + answer.completionTokens));
  if (body.stream) return sendEvents(reply, responseEvents(response, answer), { paceMs: tokenDelayMs });
  return reply.send(response);
};
