/**
 * POST /v1/messages — Anthropic Messages (decision D27), on the chat endpoint's engine: JSON, or an event
 * stream whose deltas add up to exactly the JSON answer.
 */
import type { components } from '../../../generated/schema.d.ts';
import { toChatRequest } from '../anthropic/conversation.ts';
import { messageEvents, toMessage } from '../anthropic/message.ts';
import { modelFor } from '../domain/catalogue.ts';
import { billingHeaders } from '../http/responses.ts';
import { sendEvents } from '../http/sse.ts';
import { newId } from '../ids.ts';
import type { Handler } from '../context.ts';

type MessagesRequest = components['schemas']['AnthropicMessagesRequest'];

export const createMessage: Handler = async (request, reply, { services, tokenDelayMs }) => {
  const body = request.body as MessagesRequest;
  const model = modelFor(body.model, '/v1/messages', request.apiKey?.tier);
  const answer = await services.text.answerChat({ ...toChatRequest(body), model: model.id });
  const head = { id: newId('msg_'), model: model.id };
  reply.headers(billingHeaders(model, answer.promptTokens + answer.completionTokens));
  if (body.stream) return sendEvents(reply, messageEvents(answer, head), { paceMs: tokenDelayMs });
  return reply.send(toMessage(answer, head));
};
