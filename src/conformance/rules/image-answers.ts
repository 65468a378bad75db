/**
 * What an image answer must hold for the request that produced it: `n` images (default from the
 * schema), each decoding to exactly `size` (default from the schema), as PNG in the full profile (D12).
 */
import type { Contract, Operation } from '../../contract/index.ts';
import type { Tester } from '../check.ts';
import type { Exchange } from '../http.ts';
import { decodeImage } from '../png.ts';
import { propertySchema } from '../schema.ts';

/** Whether an answer carries images (`data[].b64_json`). */
export function isImageResult(json: unknown): json is { data: Array<{ b64_json: string }> } {
  const data = (json as { data?: unknown })?.data;
  return Array.isArray(data) && data.every((d) => typeof (d as { b64_json?: unknown })?.b64_json === 'string');
}

/** The value a request asks for, or the schema's default when it leaves the field out. */
export function requested(contract: Contract, op: Operation, body: Record<string, unknown> | undefined, field: string): unknown {
  if (body && body[field] !== undefined) return body[field];
  const schema = op.raw.requestBody?.content['application/json']?.schema;
  return schema ? propertySchema(contract, schema, field)?.default : undefined;
}

/**
 * Checks the images of a successful answer against the request; returns the decoded images.
 * @example
 * await checkImages(t, op, { prompt: 'a cat', n: 2, size: '512x512' }, exchange);
 */
export async function checkImages(t: Tester, op: Operation, body: Record<string, unknown> | undefined, ex: Exchange) {
  const json = ex.response?.json;
  if (!isImageResult(json)) return [];
  const rule = 'images';
  const n = Number(requested(t.ctx.contract, op, body, 'n') ?? 1);
  t.expect(json.data.length === n, `asked for n=${n} images, got ${json.data.length}`, `${rule}: n`, ex);
  const size = String(requested(t.ctx.contract, op, body, 'size') ?? '');
  const [width, height] = size.split('x').map(Number);
  const images = [];
  for (const [i, item] of json.data.entries()) {
    try {
      const img = await decodeImage(item.b64_json);
      images.push(img);
      if (width && height) {
        t.expect(img.width === width && img.height === height, `image ${i} is ${img.width}x${img.height}, asked for ${size}`, `${rule}: size`, ex);
      }
      if (t.ctx.profile.reference) t.expect(img.format === 'png', `image ${i} is ${img.format}, not PNG`, 'image-sizes: results are PNG', ex);
    } catch (e) {
      t.fail(`image ${i} does not decode: ${(e as Error).message}`, `${rule}: data[].b64_json`, ex);
    }
  }
  return images;
}
