/**
 * POST /v1/chat/completions — OpenAI Chat Completions, as JSON or as a server-sent event stream whose
 * deltas concatenate to exactly the JSON answer (decision D17).
 */
import type { components } from '../../../generated/schema.d.ts';
import { modelFor } from '../domain/catalogue.ts';
import type { ChatAnswer, ResponseFormat } from '../domain/engine/text/index.ts';
import { billingHeaders } from '../http/responses.ts';
import { eventTemplate, sendEvents, type SseEvent } from '../http/sse.ts';
import { newId } from '../ids.ts';
import type { Handler } from '../context.ts';

type ChatRequest = components['schemas']['ChatCompletionRequest'];
type ChatCompletion = components['schemas']['ChatCompletion'];
type Chunk = components['schemas']['ChatCompletionChunk'];
type Usage = components['schemas']['Usage'];

export const createChatCompletion: Handler = async (request, reply, { services, now, tokenDelayMs }) => {
  const body = request.body as ChatRequest;
  const model = modelFor(body.model, '/v1/chat/completions', request.apiKey?.tier);
  const limits = [body.max_tokens, body.max_completion_tokens].filter((v): v is number => typeof v === 'number');
  const answer = await services.text.answerChat({
    model: model.id,
    messages: body.messages,
    temperature: body.temperature,
    seed: body.seed,
    maxTokens: limits.length > 0 ? Math.min(...limits) : null,
    tools: body.tools,
    toolChoice: body.tool_choice,
    parallelToolCalls: body.parallel_tool_calls ?? true,
    responseFormat: responseFormatOf(body.response_format),
  });
  const usage: Usage = {
    prompt_tokens: answer.promptTokens,
    completion_tokens: answer.completionTokens,
    total_tokens: answer.promptTokens + answer.completionTokens,
  };
  const head = { id: newId('chatcmpl-'), created: Math.floor(now().getTime() / 1000), model: model.id };
  reply.headers(billingHeaders(model, usage.total_tokens));

  if (body.stream) {
    const chunks = streamOf(answer, head, body.stream_options?.include_usage ? usage : undefined);
    return sendEvents(reply, chunks, { paceMs: tokenDelayMs });
  }
  const completion: ChatCompletion = {
    ...head,
    object: 'chat.completion',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: answer.content,
          refusal: null,
          ...(answer.toolCalls.length > 0 && {
            tool_calls: answer.toolCalls.map((call) => ({ id: call.id, type: 'function' as const, function: { name: call.name, arguments: call.arguments } })),
          }),
        },
        finish_reason: answer.finishReason,
        logprobs: null,
      },
    ],
    usage,
  };
  return reply.send(completion);
};

/** `response_format` in the engine's terms (decision D29). */
function responseFormatOf(format: ChatRequest['response_format']): ResponseFormat | undefined {
  if (format?.type === 'json_schema') return { type: 'json_schema', name: format.json_schema.name, schema: format.json_schema.schema };
  if (format?.type === 'json_object') return { type: 'json_object' };
  return undefined;
}

/**
 * The answer as `chat.completion.chunk` events: the role first, one token per content delta (or per piece
 * of a tool call's arguments), the finish reason, the usage when asked for, and `[DONE]`.
 */
function* streamOf(answer: ChatAnswer, head: { id: string; created: number; model: string }, usage: Usage | undefined): Generator<SseEvent> {
  const data = (delta: Chunk['choices'][number]['delta'], finish: Chunk['choices'][number]['finish_reason'] = null): Chunk => ({
    ...head,
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
    // With include_usage, every chunk but the last carries `usage: null`, as OpenAI's do.
    ...(usage && { usage: null }),
  });
  const chunk = (delta: Chunk['choices'][number]['delta'], finish: Chunk['choices'][number]['finish_reason'] = null): SseEvent => ({ data: data(delta, finish) });
  yield chunk({ role: 'assistant', content: answer.content === null ? null : '' });
  const content = eventTemplate((piece: string) => data({ content: piece }));
  for (const piece of answer.contentPieces) yield content(piece);
  for (const [index, call] of answer.toolCalls.entries()) {
    yield chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] });
    const argument = eventTemplate((piece: string) => data({ tool_calls: [{ index, function: { arguments: piece } }] }));
    for (const piece of call.argumentPieces) yield argument(piece);
  }
  yield chunk({}, answer.finishReason);
  if (usage) yield { data: { ...head, object: 'chat.completion.chunk', choices: [], usage } satisfies Chunk };
  yield { data: '[DONE]' };
}
