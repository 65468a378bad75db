/**
 * POST /v1/generation/image/edit — inpainting with a mask, a variation without. Both images are decoded
 * (400 when they do not) before anything is counted against the quota.
 */
import type { components } from '../../../generated/schema.d.ts';
import { imageModel } from '../catalogue.ts';
import { decodeImageInput, editImages } from '../engine/images/index.ts';
import { resolveModel } from './models.ts';
import { reserveImages } from './quota.ts';
import { sendImages } from './images.ts';
import type { Handler } from './types.ts';

type EditRequest = components['schemas']['ImageEditRequest'];

export const editImage: Handler = async (request, reply, context) => {
  const body = context.validate.body<EditRequest>('editImage', request.body);
  resolveModel(imageModel.id, '/v1/generation/image/edit', request, context);
  const image = await decodeImageInput(body.image, 'image');
  const mask = body.mask === undefined ? undefined : await decodeImageInput(body.mask, 'mask');
  const [width, height] = (body.size ?? '1024x1024').split('x').map(Number) as [number, number];
  const n = body.n ?? 1;
  const grant = context.faults.has('edit-quota-free') ? { n, headers: {}, refund() {} } : reserveImages(n, request, context);
  await sendImages(
    reply,
    grant,
    context,
    (n, w) =>
      editImages({ prompt: body.prompt, image, mask: context.faults.has('mask-ignored') ? undefined : mask, width: w, height, n }),
    width,
  );
};
