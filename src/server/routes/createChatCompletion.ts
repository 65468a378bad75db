/**
 * POST /v1/chat/completions — OpenAI Chat Completions, as JSON or as a server-sent event stream whose
 * deltas concatenate to exactly the JSON answer.
 */
import type { components } from '../../../generated/schema.d.ts';
import type { Model } from '../catalogue.ts';
import type { GatewayContext } from '../context.ts';
import { answerChat, TextEngineError, type ChatAnswer } from '../engine/text/index.ts';
import { HttpError } from '../http-error.ts';
import { newId } from '../ids.ts';
import { openEventStream, type SseWriter } from '../sse.ts';
import { billingHeaders } from './billing.ts';
import { resolveModel } from './models.ts';
import type { Handler } from './types.ts';

type ChatRequest = components['schemas']['ChatCompletionRequest'];
type ChatCompletion = components['schemas']['ChatCompletion'];
type Chunk = components['schemas']['ChatCompletionChunk'];

export const createChatCompletion: Handler = async (request, reply, context) => {
  const body = context.validate.body<ChatRequest>('createChatCompletion', request.body);
  const model = resolveModel(body.model, '/v1/chat/completions', request, context);
  const limits = [body.max_tokens, body.max_completion_tokens].filter((v): v is number => typeof v === 'number');
  const answer = engineAnswer(() =>
    answerChat({
      model: model.id,
      messages: body.messages,
      temperature: body.temperature,
      seed: body.seed,
      maxTokens: limits.length > 0 && !context.faults.has('max-tokens-ignored') ? Math.min(...limits) : null,
      tools: body.tools,
      toolChoice: body.tool_choice,
      parallelToolCalls: body.parallel_tool_calls ?? true,
    }),
  );
  const usage = {
    prompt_tokens: answer.promptTokens,
    completion_tokens: answer.completionTokens,
    total_tokens: answer.promptTokens + answer.completionTokens,
  };
  const id = newId('chatcmpl-');
  const created = Math.floor(context.now().getTime() / 1000);
  const headers = billingHeaders(model, usage.total_tokens);

  if (body.stream) {
    reply.hijack();
    await streamAnswer(reply.raw, { ...reply.getHeaders(), ...headers } as Record<string, string>, {
      id,
      created,
      model,
      answer,
      usage: body.stream_options?.include_usage || context.faults.has('stream-usage-unasked') ? usage : undefined,
      context,
    });
    return;
  }

  const completion: ChatCompletion = {
    id,
    object: 'chat.completion',
    created,
    model: model.id,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: answer.content,
          refusal: null,
          ...(answer.toolCalls.length > 0 && {
            tool_calls: answer.toolCalls.map((call) => ({
              id: call.id,
              type: 'function' as const,
              function: { name: call.name, arguments: call.arguments },
            })),
          }),
        },
        finish_reason: answer.finishReason,
        logprobs: null,
      },
    ],
    usage,
  };
  if (context.faults.has('chat-drop-usage')) delete (completion as Partial<ChatCompletion>).usage;
  if (context.faults.has('chat-created-string')) (completion as unknown as { created: string }).created = String(created);
  reply.headers(headers).send(completion);
};

/** The engine refuses requests it cannot answer (a tool_choice naming an absent tool): that is the caller's 400. */
function engineAnswer(make: () => ChatAnswer): ChatAnswer {
  try {
    return make();
  } catch (error) {
    if (error instanceof TextEngineError) throw new HttpError(400, error.message);
    throw error;
  }
}

interface StreamPlan {
  id: string;
  created: number;
  model: Model;
  answer: ChatAnswer;
  usage: components['schemas']['Usage'] | undefined;
  context: GatewayContext;
}

async function streamAnswer(res: import('node:http').ServerResponse, headers: Record<string, string>, plan: StreamPlan): Promise<void> {
  const { context } = plan;
  const sse = openEventStream(res, headers);
  context.streams.active++;
  try {
    await writeChunks(sse, plan);
  } finally {
    context.streams.active--;
    if (sse.open) context.streams.completed++;
    else context.streams.abandoned++;
    sse.end();
  }
}

async function writeChunks(sse: SseWriter, plan: StreamPlan): Promise<void> {
  const { id, created, model, answer, usage, context } = plan;
  const { faults } = context;
  const chunk = (delta: Chunk['choices'][number]['delta'], finish: Chunk['choices'][number]['finish_reason'] = null): Chunk => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model: model.id,
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
    ...(usage && { usage: null }),
  });

  sse.send(chunk(faults.has('stream-no-role') ? { content: '' } : { role: 'assistant', content: answer.content === null ? null : '' }));
  if (faults.has('stream-malformed-event')) sse.sendRaw('{"id":');

  const pieces = faults.has('stream-content-mismatch') ? answer.contentPieces.slice(0, -1) : answer.contentPieces;
  for (const piece of pieces) {
    await sse.pause(context.tokenDelayMs);
    if (!sse.open) return;
    sse.send(chunk({ content: piece }));
  }
  for (const [index, call] of answer.toolCalls.entries()) {
    await sse.pause(context.tokenDelayMs);
    sse.send(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
    for (const piece of call.argumentPieces) {
      await sse.pause(context.tokenDelayMs);
      if (!sse.open) return;
      sse.send(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  }
  if (!faults.has('stream-no-finish-reason')) sse.send(chunk({}, answer.finishReason));
  if (usage) sse.send({ id, object: 'chat.completion.chunk', created, model: model.id, choices: [], usage });
  if (!faults.has('stream-no-done')) sse.sendRaw('[DONE]');
}
