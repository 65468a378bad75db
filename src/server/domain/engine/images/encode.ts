import sharp from 'sharp';
import { rasterBytes, type Raster } from './canvas.ts';

/**
 * PNG settings, measured with `bench.ts` on the 2-core reference machine: zlib level 1 without the
 * per-row filter search is the fastest setting that still compresses these smooth pictures 4–10×;
 * adaptive filtering makes files ~3× smaller but costs ~12 ms more per 1024×1024 image.
 */
const PNG_OPTIONS = { compressionLevel: 1, adaptiveFiltering: false } as const;

/**
 * Encodes a raster as a lossless PNG, so every pixel decodes back exactly: RGBA when `hasAlpha`,
 * otherwise RGB (the opaque alpha is dropped).
 *
 * @example
 * const png = await encodePng(renderArtwork(512, 512, theme, rng));
 */
export function encodePng(image: Raster & { hasAlpha?: boolean }): Promise<Buffer> {
  const { width, height } = image;
  const input = sharp(rasterBytes(image), { raw: { width, height, channels: 4 } });
  return (image.hasAlpha ? input : input.removeAlpha()).png(PNG_OPTIONS).toBuffer();
}
