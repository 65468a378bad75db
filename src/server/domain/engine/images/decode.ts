import sharp from 'sharp';
import { invalidRequest } from '../../errors.ts';
import { wordsOf, type Pixels } from './canvas.ts';
import { MAX_SIDE } from './limits.ts';
import { sniffFormat, type AcceptedFormat } from './sniff.ts';

/** A source image or mask, decoded to packed 8-bit sRGB pixels (opaque alpha added when it has none). */
export interface DecodedImage extends Pixels {
  /** The format it was sent in. */
  readonly format: AcceptedFormat;
}

/** The request fields that carry images. */
export type ImageField = 'image' | 'mask';

/** A size to decode straight to. */
export interface DecodeSize {
  width: number;
  height: number;
  /** Scale by nearest neighbour (a mask stays binary) instead of libvips's default lanczos3. */
  nearest?: boolean;
}

const DATA_URL = /^data:([^,]*),/i;
const DATA_URL_TYPES = new Set(['image/png', 'image/jpeg', 'image/jpg', 'image/webp']);
const ACCEPTED = 'a PNG, JPEG or WebP image in base64';

/**
 * Decodes a request's image field: plain base64 (standard or URL-safe alphabet, line breaks allowed)
 * or a `data:image/png|jpeg|webp;base64,` URL. Anything that is not such an image — bad base64, other
 * formats, damaged files, images over 4096×4096 (decision D9) — is an invalid_request error naming the field.
 *
 * With `size`, the picture is scaled (stretched, as `resizePixels` does) to it while it is decoded: libvips
 * then reads the file in strips and never holds the full-size pixels, so a 4096² upload edited at 1024²
 * costs a few megabytes instead of 64 MB. A picture already of that size is decoded exactly, unscaled.
 *
 * @example
 * const image = await decodeImageInput(body.image, 'image'); // { format: 'png', width, height, hasAlpha, pixels }
 * const source = await decodeImageInput(body.image, 'image', { width: 1024, height: 1024 });
 */
export async function decodeImageInput(value: string, field: ImageField, size?: DecodeSize): Promise<DecodedImage> {
  const bytes = bytesOf(value, field);
  const sniffed = sniffFormat(bytes);
  if (!sniffed.accepted) {
    const what = sniffed.name === undefined ? 'not' : `a ${sniffed.name} image, not`;
    throw invalidRequest(`'${field}' is ${what} ${ACCEPTED}.`);
  }
  const format = sniffed.format;
  const label = format === 'webp' ? 'WebP' : format.toUpperCase();
  // Read the header first, so an oversized image is refused before its pixels are allocated.
  const header = await sharp(bytes).metadata().catch(() => undefined);
  if (!header?.width || !header.height) {
    throw invalidRequest(`'${field}' looks like a ${label} image but its header is damaged; it could not be decoded.`);
  }
  if (header.width > MAX_SIDE || header.height > MAX_SIDE) {
    throw invalidRequest(
      `'${field}' is ${header.width}×${header.height} pixels; images up to ${MAX_SIDE}×${MAX_SIDE} are accepted.`);
  }
  try {
    // autoOrient: a phone photo is edited the way it is displayed, not the way its sensor stored it.
    let pipeline = sharp(bytes, { autoOrient: true }).toColourspace('srgb').ensureAlpha();
    if (size !== undefined) pipeline = pipeline.resize(size.width, size.height, { fit: 'fill', ...(size.nearest && { kernel: 'nearest' as const }) });
    const { data, info } = await pipeline
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 4) throw new Error(`unexpected ${info.channels} channels`);
    return { format, width: info.width, height: info.height, hasAlpha: header.hasAlpha === true, pixels: wordsOf(data) };
  } catch {
    throw invalidRequest(`'${field}' is a damaged or truncated ${label} image; it could not be decoded.`);
  }
}

/** The bytes of a base64 string or base64 data: URL. */
function bytesOf(value: string, field: ImageField): Buffer {
  if (typeof value !== 'string') throw invalidRequest(`'${field}' must be a string: ${ACCEPTED}.`);
  let payload = value;
  const dataUrl = DATA_URL.exec(value);
  if (dataUrl) {
    const [type = '', ...parameters] = (dataUrl[1] ?? '').split(';').map((part) => part.trim().toLowerCase());
    if (!DATA_URL_TYPES.has(type)) {
      throw invalidRequest(`'${field}' is a data: URL of type '${type || 'text/plain'}'; send ${ACCEPTED} (image/png, image/jpeg or image/webp).`);
    }
    if (!parameters.includes('base64')) {
      throw invalidRequest(`'${field}' is a data: URL without ';base64'; send the image base64-encoded.`);
    }
    payload = value.slice(dataUrl[0].length);
  } else if (/^https?:\/\//i.test(value)) {
    throw invalidRequest(`'${field}' is a link; send the image itself, ${ACCEPTED} or a data: URL.`);
  }
  const compact = payload.replace(/\s+/g, '');
  const bad = /[^A-Za-z0-9+/\-_=]/.exec(compact) ?? /=[^=]/.exec(compact);
  if (bad) {
    throw invalidRequest(`'${field}' is not valid base64 (unexpected '${bad[0][0]}' at position ${bad.index}); send ${ACCEPTED}.`);
  }
  if (compact.length === 0) throw invalidRequest(`'${field}' is empty; send ${ACCEPTED}.`);
  if (compact.replace(/=+$/, '').length % 4 === 1) {
    throw invalidRequest(`'${field}' is not valid base64 (its length is impossible, the data looks cut off); send ${ACCEPTED}.`);
  }
  // Node's base64 decoder also reads the URL-safe alphabet.
  return Buffer.from(compact, 'base64');
}
