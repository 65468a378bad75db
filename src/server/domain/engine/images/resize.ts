import sharp from 'sharp';
import { rasterBytes, wordsOf, type Pixels } from './canvas.ts';

/**
 * The pixels scaled to exactly width×height (stretched, as the mask is, so the two stay aligned).
 * At the same size they are returned as they are: no resampling, every pixel kept exactly.
 *
 * @example
 * const source = await resizePixels(image, 1024, 1024);
 */
export async function resizePixels(image: Pixels, width: number, height: number): Promise<Pixels> {
  if (image.width === width && image.height === height) return image;
  const { data, info } = await sharp(rasterBytes(image), { raw: { width: image.width, height: image.height, channels: 4 } })
    .resize(width, height, { fit: 'fill' })
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, hasAlpha: image.hasAlpha, pixels: wordsOf(data) };
}
