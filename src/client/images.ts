/**
 * Image helpers: the gateway sends and takes images as base64 (`b64_json`, `image`, `mask`); these turn them
 * into bytes or a Blob and back, without Node-only APIs.
 */
import { base64ToBytes, bytesToBase64 } from './base64.ts';
import type { GatewayClient } from './client.ts';
import type { ImageEditRequest } from './types.ts';

/**
 * The bytes of one generated image (`data[i].b64_json`), e.g. to write a PNG file.
 *
 * @example
 *   const { data } = await client.POST('/v1/generation/image', { params: { query: { model: 'image-gen' } }, body: { prompt: 'A lighthouse' } });
 *   await writeFile('lighthouse.png', imageBytes(data!.data[0]!.b64_json));
 */
export function imageBytes(b64: string): Uint8Array {
  return base64ToBytes(b64);
}

/**
 * One generated image as a Blob (PNG by default), e.g. for `URL.createObjectURL` in a browser.
 *
 * @example
 *   img.src = URL.createObjectURL(imageBlob(data.data[0]!.b64_json));
 */
export function imageBlob(b64: string, type = 'image/png'): Blob {
  return new Blob([imageBytes(b64) as Uint8Array<ArrayBuffer>], { type });
}

/** An image edit with the source image (and mask) as bytes or Blobs instead of base64. */
export interface ImageEditFromBytes extends Omit<ImageEditRequest, 'image' | 'mask'> {
  image: Uint8Array | Blob;
  /** White pixels mark the areas to change (inpainting); without a mask the edit is a variation. */
  mask?: Uint8Array | Blob;
}

/**
 * Sends `POST /v1/generation/image/edit` from bytes: base64-encodes `image` and `mask` and returns the
 * client's typed result (`data` or `error`).
 *
 * @example
 *   const { data, error } = await editImageFromBytes(client, {
 *     prompt: 'Add a red sailing boat',
 *     image: await readFile('sea.png'),
 *     mask: await readFile('mask.png'),
 *     size: '512x512',
 *   });
 */
export async function editImageFromBytes(client: GatewayClient, edit: ImageEditFromBytes, init: { signal?: AbortSignal } = {}) {
  const { image, mask, ...rest } = edit;
  const body: ImageEditRequest = { ...rest, image: await toBase64(image) };
  if (mask !== undefined) body.mask = await toBase64(mask);
  return client.POST('/v1/generation/image/edit', { body, ...(init.signal && { signal: init.signal }) });
}

async function toBase64(source: Uint8Array | Blob): Promise<string> {
  return bytesToBase64(source instanceof Uint8Array ? source : new Uint8Array(await source.arrayBuffer()));
}
