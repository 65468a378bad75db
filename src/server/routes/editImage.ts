/**
 * POST /v1/generation/image/edit — inpainting with a mask, a variation without, by the image model (decision
 * D15); counted against the same daily quota as generation (decision D7).
 */
import type { components } from '../../../generated/schema.d.ts';
import { abandonedBy } from '../http/abandoned.ts';
import { imageResult, quotaHeaders } from '../http/responses.ts';
import type { Handler } from '../context.ts';

type EditRequest = components['schemas']['ImageEditRequest'];

export const editImage: Handler = async (request, reply, { catalogue, services, now }) => {
  const body = request.body as EditRequest;
  const model = catalogue.editModel(request.apiKey!.tier);
  const batch = await services.images.edit(request.apiKey!, {
    model: model.id,
    prompt: body.prompt,
    image: body.image,
    mask: body.mask,
    size: body.size ?? '1024x1024',
    n: body.n ?? 1,
  }, abandonedBy(reply));
  return reply.headers(quotaHeaders(batch.quota)).send(imageResult(batch, now()));
};
