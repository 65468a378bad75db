/**
 * POST /v1/chat/completions — OpenAI Chat Completions, as JSON or as a server-sent event stream whose
 * deltas concatenate to exactly the JSON answer (decision D17).
 */
import type { components } from '../../../generated/schema.d.ts';
import { writeAnswer } from '../http/answer-stream.ts';
import { abandonedBy } from '../http/abandoned.ts';
import { billingHeaders } from '../http/responses.ts';
import { sendEvents } from '../http/sse.ts';
import { chatChunks } from '../client-protocols/openai-chat/chunks.ts';
import { toChatRequest } from '../client-protocols/openai-chat/request.ts';
import { newId } from '../ids.ts';
import type { Handler } from '../context.ts';

type ChatRequest = components['schemas']['ChatCompletionRequest'];
type ChatCompletion = components['schemas']['ChatCompletion'];
type Usage = components['schemas']['Usage'];

export const createChatCompletion: Handler = async (request, reply, { catalogue, services, now, tokenDelayMs }) => {
  const body = request.body as ChatRequest;
  const model = catalogue.modelFor(body.model, '/v1/chat/completions', request.apiKey?.tier);
  const chat = toChatRequest(body, model.id);
  const head = { id: newId('chatcmpl-'), created: Math.floor(now().getTime() / 1000), model: model.id };
  const abandoned = abandonedBy(reply);

  if (body.stream) {
    const stream = await services.text.streamChat(chat, abandoned);
    reply.headers(billingHeaders(model, stream.answer && stream.answer.promptTokens + stream.answer.completionTokens));
    const chunks = writeAnswer(stream, chatChunks(head, body.stream_options?.include_usage === true), { log: reply.log });
    return sendEvents(reply, chunks, { paceMs: tokenDelayMs });
  }
  const answer = await services.text.answerChat(chat, abandoned);
  const usage: Usage = {
    prompt_tokens: answer.promptTokens,
    completion_tokens: answer.completionTokens,
    total_tokens: answer.promptTokens + answer.completionTokens,
  };
  // Written out member by member: an object spread (`...head`, `...(calls && { … })`) is the slowest way V8
  // has to build an object, and this one is built for every answer.
  const message: ChatCompletion['choices'][number]['message'] = { role: 'assistant', content: answer.content, refusal: null };
  if (answer.toolCalls.length > 0) {
    message.tool_calls = answer.toolCalls.map((call) => ({ id: call.id, type: 'function' as const, function: { name: call.name, arguments: call.arguments } }));
  }
  const completion: ChatCompletion = {
    id: head.id,
    created: head.created,
    model: head.model,
    object: 'chat.completion',
    choices: [{ index: 0, message, finish_reason: answer.finishReason, logprobs: null }],
    usage,
  };
  return reply.headers(billingHeaders(model, usage.total_tokens)).send(completion);
};
