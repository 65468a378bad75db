/**
 * POST /v1/messages — Anthropic Messages (decision D27), answered by the text service as a chat completion
 * is: JSON, or an event stream whose deltas add up to exactly the JSON answer.
 */
import type { components } from '../../../generated/schema.d.ts';
import { toChatRequest } from '../client-protocols/anthropic-messages/request.ts';
import { messageWriter, toMessage } from '../client-protocols/anthropic-messages/message.ts';
import { billingHeaders } from '../http/responses.ts';
import { abandonedBy } from '../http/abandoned.ts';
import { writeAnswer } from '../http/answer-stream.ts';
import { sendEvents } from '../http/sse.ts';
import { newId } from '../ids.ts';
import type { Handler, StreamWants } from '../context.ts';

type MessagesRequest = components['schemas']['AnthropicMessagesRequest'];

/** message_start says the input tokens before the answer. */
const PROMPT_TOKENS_FIRST: StreamWants = { promptTokens: true };

export const createMessage: Handler = async (request, reply, { catalogue, services, tokenDelayMs }) => {
  const body = request.body as MessagesRequest;
  const model = catalogue.modelFor(body.model, '/v1/messages', request.apiKey?.tier);
  const chat = toChatRequest(body, model.id);
  const head = { id: newId('msg_'), model: model.id };
  const abandoned = abandonedBy(reply);

  if (body.stream) {
    const stream = await services.text.streamChat(chat, abandoned, PROMPT_TOKENS_FIRST);
    // A service that cannot tell them first has them counted.
    const inputTokens = stream.promptTokens ?? (await services.text.countChatTokens(chat));
    reply.headers(billingHeaders(model, stream.answer && stream.answer.promptTokens + stream.answer.completionTokens));
    return sendEvents(reply, writeAnswer(stream, messageWriter(head, inputTokens), { log: reply.log }), { paceMs: tokenDelayMs });
  }
  const answer = await services.text.answerChat(chat, abandoned);
  reply.headers(billingHeaders(model, answer.promptTokens + answer.completionTokens));
  return reply.send(toMessage(answer, head));
};
