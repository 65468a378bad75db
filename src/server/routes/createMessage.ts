/**
 * POST /v1/messages — Anthropic Messages (decision D27), on the chat endpoint's engine: JSON, or an event
 * stream whose deltas add up to exactly the JSON answer.
 */
import type { components } from '../../../generated/schema.d.ts';
import { toChatRequest } from '../anthropic/conversation.ts';
import { messageWriter, toMessage } from '../anthropic/message.ts';
import { billingHeaders } from '../http/responses.ts';
import { abandonedBy } from '../http/abandoned.ts';
import { writeAnswer } from '../http/answer-stream.ts';
import { sendEvents } from '../http/sse.ts';
import { newId } from '../ids.ts';
import type { Handler } from '../context.ts';

type MessagesRequest = components['schemas']['AnthropicMessagesRequest'];

export const createMessage: Handler = async (request, reply, { catalogue, services, tokenDelayMs }) => {
  const body = request.body as MessagesRequest;
  const model = catalogue.modelFor(body.model, '/v1/messages', request.apiKey?.tier);
  const chat = toChatRequest(body, model.id);
  const head = { id: newId('msg_'), model: model.id };
  const abandoned = abandonedBy(reply);

  if (body.stream) {
    // message_start says the input tokens before the answer: a whole answer's own count, or for an
    // upstream's (known at its end) the count of /v1/messages/count_tokens, made while the upstream begins.
    let counting = catalogue.upstreamOf(model.id) ? services.text.countChatTokens(chat) : undefined;
    counting?.catch(() => undefined);
    const stream = await services.text.streamChat(chat, abandoned);
    const inputTokens = stream.answer?.promptTokens ?? (await (counting ??= services.text.countChatTokens(chat)));
    reply.headers(billingHeaders(model, stream.answer && stream.answer.promptTokens + stream.answer.completionTokens));
    return sendEvents(reply, writeAnswer(stream, messageWriter(head, inputTokens), { log: reply.log }), { paceMs: tokenDelayMs });
  }
  const answer = await services.text.answerChat(chat, abandoned);
  reply.headers(billingHeaders(model, answer.promptTokens + answer.completionTokens));
  return reply.send(toMessage(answer, head));
};
