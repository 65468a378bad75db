import sharp from 'sharp';
import type { Raster } from './canvas.ts';

/** Raw 8-bit pixels with 3 (RGB) or 4 (RGBA) channels, row-major. */
export interface Pixels {
  readonly width: number;
  readonly height: number;
  readonly channels: 3 | 4;
  readonly data: Buffer;
}

/**
 * PNG settings, measured with `bench.ts` on the 2-core reference machine: zlib level 1 without
 * per-row filter search is the fastest setting that still compresses the smooth pictures several
 * times; adaptive filtering would make files ~3× smaller but costs ~12 ms per 1024×1024 image.
 */
const PNG_OPTIONS = { compressionLevel: 1, adaptiveFiltering: false } as const;

/**
 * Encodes raw pixels as a lossless PNG (so every pixel decodes back exactly).
 *
 * @example
 * const png = await encodePng(renderArtwork(512, 512, theme, rng));
 */
export function encodePng(pixels: Raster | Pixels): Promise<Buffer> {
  const channels = 'channels' in pixels ? pixels.channels : 3;
  return sharp(pixels.data, { raw: { width: pixels.width, height: pixels.height, channels } })
    .png(PNG_OPTIONS)
    .toBuffer();
}
