/**
 * POST /v1/generation/prompt — decisions D1 and D2: the model comes from the body or the query (one is
 * required, both must agree), and the answer is a `text_completion` object.
 */
import type { components } from '../../../generated/schema.d.ts';
import { invalidRequest } from '../domain/errors.ts';
import { abandonedBy } from '../http/abandoned.ts';
import { billingHeaders } from '../http/responses.ts';
import { newId } from '../ids.ts';
import type { Handler } from '../context.ts';

type TextRequest = components['schemas']['TextCompletionRequest'];
type TextCompletion = components['schemas']['TextCompletion'];

export const createTextCompletion: Handler = async (request, reply, { catalogue, services, now }) => {
  const query = request.query as { model?: string };
  const body = request.body as TextRequest;
  if (query.model !== undefined && body.model !== undefined && query.model !== body.model) {
    throw invalidRequest(`The query names model '${query.model}' and the body names '${body.model}'; name one model, or the same in both.`);
  }
  const modelId = body.model ?? query.model;
  if (modelId === undefined) throw invalidRequest("A model is required; give it as the 'model' query parameter or as 'model' in the body.");
  const model = catalogue.modelFor(modelId, '/v1/generation/prompt', request.apiKey?.tier);
  const answer = await services.text.completePrompt(
    { model: model.id, prompt: body.prompt, temperature: body.temperature, seed: body.seed, maxTokens: body.max_tokens },
    abandonedBy(reply),
  );
  const usage = {
    prompt_tokens: answer.promptTokens,
    completion_tokens: answer.completionTokens,
    total_tokens: answer.promptTokens + answer.completionTokens,
  };
  const completion: TextCompletion = {
    id: newId('cmpl-'),
    object: 'text_completion',
    created: Math.floor(now().getTime() / 1000),
    model: model.id,
    choices: [{ index: 0, text: answer.text, finish_reason: answer.finishReason }],
    usage,
  };
  return reply.headers(billingHeaders(model, usage.total_tokens)).send(completion);
};
