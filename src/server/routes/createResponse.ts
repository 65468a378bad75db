/**
 * POST /v1/responses — OpenAI Responses (decision D29), answered by the text service as a chat completion is:
 * JSON, or an event stream whose deltas add up to exactly the JSON answer. Kept for the key unless `store` is false.
 */
import type { components } from '../../../generated/schema.d.ts';
import { keepResponse, previousConversation } from '../domain/stored-responses.ts';
import { billingHeaders } from '../http/responses.ts';
import { abandonedBy } from '../http/abandoned.ts';
import { writeAnswer } from '../http/answer-stream.ts';
import { sendEvents } from '../http/sse.ts';
import { newId } from '../ids.ts';
import { inputItems, toChatRequest } from '../client-protocols/openai-responses/request.ts';
import { responseWriter, toResponse } from '../client-protocols/openai-responses/response.ts';
import type { Handler } from '../context.ts';

type ResponseRequest = components['schemas']['ResponseRequest'];
type Response = components['schemas']['Response'];

export const createResponse: Handler = async (request, reply, { catalogue, services, store, now, tokenDelayMs }) => {
  const body = request.body as ResponseRequest;
  const key = request.apiKey!;
  const model = catalogue.modelFor(body.model, '/v1/responses', key.tier);
  const at = now();
  const history = body.previous_response_id ? await previousConversation(store, body.previous_response_id, key.id, at) : [];
  const chat = toChatRequest(body, history, model.id);
  const head = { id: newId('resp_'), createdAt: Math.floor(at.getTime() / 1000), model: model.id, newId };
  const keep = (response: Response) =>
    body.store === false ? Promise.resolve() : keepResponse(store, { id: response.id, keyId: key.id, createdAt: at.toISOString(), response, items: [...history, ...inputItems(body.input), ...response.output] }, at);
  const abandoned = abandonedBy(reply);

  if (body.stream) {
    const stream = await services.text.streamChat(chat, abandoned);
    reply.headers(billingHeaders(model, stream.answer && stream.answer.promptTokens + stream.answer.completionTokens));
    // A whole answer is kept before its stream begins, and the stream names the items it kept; an upstream's
    // is kept when it has ended, before the event that says so (a client may continue from it at once).
    let writer = responseWriter(body, head);
    if (stream.answer) {
      const kept = toResponse(stream.answer, body, head);
      await keep(kept);
      const ids = kept.output.map((item) => item.id ?? newId('fc_'));
      writer = responseWriter(body, { id: head.id, createdAt: head.createdAt, model: head.model, newId: (prefix) => ids.shift() ?? newId(prefix) });
    }
    const events = writeAnswer(stream, writer, { log: reply.log, ...(!stream.answer && { beforeEnd: (end) => keep(writer.responseAt(end)) }) });
    return sendEvents(reply, events, { paceMs: tokenDelayMs });
  }
  const answer = await services.text.answerChat(chat, abandoned);
  const response = toResponse(answer, body, head);
  await keep(response);
  return reply.headers(billingHeaders(model, answer.promptTokens + answer.completionTokens)).send(response);
};
