/** POST /v1/generation/image?model=image-gen — n PNGs of the requested size, counted against the quota. */
import type { components } from '../../../generated/schema.d.ts';
import { generateImages, generationSizes } from '../engine/images/index.ts';
import { HttpError } from '../http-error.ts';
import { resolveModel } from './models.ts';
import { reserveImages } from './quota.ts';
import { sendImages } from './images.ts';
import type { Handler } from './types.ts';

type ImageRequest = components['schemas']['ImageGenerationRequest'];

export const createImage: Handler = async (request, reply, context) => {
  const query = request.query as { model?: string };
  context.validate.query('createImage', query);
  const body = context.validate.body<ImageRequest>('createImage', request.body);
  resolveModel(query.model!, '/v1/generation/image', request, context);
  const size = body.size ?? '1024x1024';
  if (!generationSizes.includes(size)) {
    throw new HttpError(400, `Size '${size}' is not supported; image-gen makes ${generationSizes.join(', ')}.`);
  }
  const [width, height] = size.split('x').map(Number) as [number, number];
  const n = body.n ?? 1;
  const grant = reserveImages(n, request, context);
  await sendImages(reply, grant, context, (count, w) => generateImages({ prompt: body.prompt, width: w, height, n: count }), width);
};
