/**
 * The gateway's image requests as OpenAI Images requests: a generation is JSON, an edit is a multipart form
 * whose image (and mask) are the PNGs the image engine prepared for OpenAI (`prepareEdit`: the source at the
 * output size, the mask turned into OpenAI's convention, transparent where the picture changes).
 *
 * No `response_format` is sent: the GPT Image models refuse it (they always answer base64), and a model that
 * needs it to answer base64 (DALL·E) answers URLs instead, which `imagesFrom` reports by name. No
 * `output_format` either: PNG, what the gateway answers, is its default, and DALL·E models do not take it.
 */
import type { GenerationOrder } from '../../../domain/images.ts';

/** What the client asked for: the same three fields for a generation and an edit. */
export type ImageOrder = Pick<GenerationOrder, 'prompt' | 'size' | 'n'>;

/**
 * @example
 * generationRequest({ prompt: 'A lighthouse', size: '1024x1024', n: 2 }, 'gpt-image-1');
 * // { path: '/images/generations', body: { model: 'gpt-image-1', prompt: 'A lighthouse', n: 2, size: '1024x1024' } }
 */
export function generationRequest(order: ImageOrder, model: string): { path: '/images/generations'; body: Record<string, unknown> } {
  return { path: '/images/generations', body: { model, prompt: order.prompt, n: order.n, size: order.size } };
}

/**
 * The edit as OpenAI's multipart form. One source image goes as `image` (the SDKs send `image[]` only for a
 * list of them; `dall-e-2` takes exactly one, under `image`).
 *
 * @example
 * const { path, form } = editForm(await engines.images.prepareEdit({ image, mask, width: 1024, height: 1024 }), order, 'gpt-image-1');
 * await client.form(path, form, signal);
 */
export function editForm(prepared: { image: Buffer; mask?: Buffer | undefined }, order: ImageOrder, model: string): { path: '/images/edits'; form: FormData } {
  const form = new FormData();
  form.append('model', model);
  form.append('prompt', order.prompt);
  form.append('n', String(order.n));
  form.append('size', order.size);
  form.append('image', png(prepared.image), 'image.png');
  if (prepared.mask !== undefined) form.append('mask', png(prepared.mask), 'mask.png');
  return { path: '/images/edits', form };
}

function png(bytes: Buffer): Blob {
  // The PNGs are never in shared memory (the type allows it); the Blob keeps its own copy of the bytes.
  return new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'image/png' });
}
