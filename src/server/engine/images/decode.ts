/**
 * Reading an image sent in a request: plain base64 or a `data:image/…;base64,` URL, PNG, JPEG or WebP, at
 * most 4096×4096 (decision D9). Anything else is the caller's mistake: a 400 that names the field.
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { HttpError } from '../../http-error.ts';
import { MAX_SIDE } from './limits.ts';

/** An image from a request, checked and ready to be scaled. */
export interface DecodedImage {
  /** The encoded bytes, as sent. */
  readonly bytes: Buffer;
  readonly format: 'png' | 'jpeg' | 'webp';
  readonly width: number;
  readonly height: number;
  /** SHA-256 of the bytes: seeds the results, so the same source gives the same edits. */
  readonly digest: Buffer;
}

const dataUrl = /^data:([^;,]*)(;[^,]*)?,(.*)$/s;
const base64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

function formatOf(bytes: Buffer): DecodedImage['format'] | undefined {
  if (bytes.length >= 8 && bytes.readUInt32BE(0) === 0x89504e47) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return undefined;
}

/**
 * Decodes a request's image field, or throws HttpError(400) saying what is wrong with it.
 *
 * @example
 * const image = await decodeImageInput(body.image, 'image'); // { format: 'png', width: 512, height: 512, … }
 */
export async function decodeImageInput(value: string, field: 'image' | 'mask'): Promise<DecodedImage> {
  const notAnImage = new HttpError(400, `'${field}' is not a PNG, JPEG or WebP image in base64.`);
  let text = value.trim();
  const url = dataUrl.exec(text);
  if (url) {
    const [, mediaType = '', params = '', payload = ''] = url;
    if (!/^image\/(png|jpeg|jpg|webp)$/i.test(mediaType)) {
      throw new HttpError(400, `'${field}' is a data URL of type '${mediaType || 'none'}'; send image/png, image/jpeg or image/webp.`);
    }
    if (!/;base64$/i.test(params)) throw new HttpError(400, `'${field}' must be a base64 data URL (data:${mediaType};base64,…).`);
    text = payload;
  }
  text = text.replace(/\s+/g, '');
  if (text.length === 0 || !base64.test(text)) throw notAnImage;
  const bytes = Buffer.from(text, text.includes('-') || text.includes('_') ? 'base64url' : 'base64');
  const format = formatOf(bytes);
  if (!format) throw notAnImage;
  let width: number | undefined;
  let height: number | undefined;
  try {
    ({ width, height } = await sharp(bytes).metadata());
  } catch {
    throw notAnImage;
  }
  if (!width || !height) throw notAnImage;
  if (width > MAX_SIDE || height > MAX_SIDE) {
    throw new HttpError(400, `'${field}' is ${width}×${height} pixels; at most ${MAX_SIDE}×${MAX_SIDE} is accepted.`);
  }
  return { bytes, format, width, height, digest: createHash('sha256').update(bytes).digest() };
}

/**
 * The image's pixels at exactly width×height: RGB, or RGBA with `alpha`. When the image already has
 * that size it is used pixel for pixel (no resampling), which is what lets an edit leave the pixels
 * outside a mask exactly as they were. A mask is scaled with nearest neighbour so it stays sharp.
 */
export async function pixelsAt(
  image: DecodedImage,
  width: number,
  height: number,
  options: { alpha: boolean; kernel: 'lanczos3' | 'nearest' },
): Promise<Buffer> {
  try {
    let pipeline = sharp(image.bytes).toColourspace('srgb');
    if (image.width !== width || image.height !== height) pipeline = pipeline.resize(width, height, { fit: 'fill', kernel: options.kernel });
    pipeline = options.alpha ? pipeline.ensureAlpha() : pipeline.removeAlpha();
    const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
    const channels = options.alpha ? 4 : 3;
    if (info.channels !== channels || info.width !== width || info.height !== height) {
      throw new Error(`unexpected raw layout ${info.width}×${info.height}×${info.channels}`);
    }
    return data;
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(400, `The image could not be read: ${(error as Error).message}.`);
  }
}
