/** POST /v1/generation/image?model=image-gen — n PNGs of the requested size, counted against the daily quota. */
import type { components } from '../../../generated/schema.d.ts';
import { abandonedBy } from '../http/abandoned.ts';
import { imageResult, quotaHeaders } from '../http/responses.ts';
import type { Handler } from '../context.ts';

type ImageRequest = components['schemas']['ImageGenerationRequest'];

export const createImage: Handler = async (request, reply, { catalogue, services, now }) => {
  const { model } = request.query as { model: string };
  const body = request.body as ImageRequest;
  catalogue.modelFor(model, '/v1/generation/image', request.apiKey!.tier);
  const batch = await services.images.generate(request.apiKey!, { model, prompt: body.prompt, size: body.size ?? '1024x1024', n: body.n ?? 1 }, abandonedBy(reply));
  return reply.headers(quotaHeaders(batch.quota)).send(imageResult(batch, now()));
};

