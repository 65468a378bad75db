/**
 * POST /v1/generation/prompt — decisions D1 and D2: the model comes from the body or the query (one is
 * required, both must agree), and the answer is a `text_completion` object.
 */
import type { components } from '../../../generated/schema.d.ts';
import { completePrompt } from '../engine/text/index.ts';
import { HttpError } from '../http-error.ts';
import { newId } from '../ids.ts';
import { billingHeaders } from './billing.ts';
import { resolveModel } from './models.ts';
import type { Handler } from './types.ts';

type TextRequest = components['schemas']['TextCompletionRequest'];
type TextCompletion = components['schemas']['TextCompletion'];

export const createTextCompletion: Handler = async (request, reply, context) => {
  const query = request.query as { model?: string };
  context.validate.query('createTextCompletion', query);
  const body = context.validate.body<TextRequest>('createTextCompletion', request.body);
  if (query.model !== undefined && body.model !== undefined && query.model !== body.model) {
    throw new HttpError(400, `The query names model '${query.model}' and the body names '${body.model}'; name one model, or the same in both.`);
  }
  const modelId = body.model ?? query.model;
  if (modelId === undefined) {
    throw new HttpError(400, "A model is required; give it as the 'model' query parameter or as 'model' in the body.");
  }
  const model = resolveModel(modelId, '/v1/generation/prompt', request, context);
  const answer = completePrompt({
    model: model.id,
    prompt: body.prompt,
    temperature: body.temperature,
    seed: body.seed,
    maxTokens: context.faults.has('max-tokens-ignored') ? null : body.max_tokens,
  });
  const usage = {
    prompt_tokens: answer.promptTokens,
    completion_tokens: answer.completionTokens,
    total_tokens: answer.promptTokens + answer.completionTokens,
  };
  const completion: TextCompletion = {
    id: newId('cmpl-'),
    object: 'text_completion',
    created: Math.floor(context.now().getTime() / 1000),
    model: model.id,
    choices: [{ index: 0, text: answer.text, finish_reason: answer.finishReason }],
    usage,
  };
  reply.headers(billingHeaders(model, usage.total_tokens)).send(completion);
};
