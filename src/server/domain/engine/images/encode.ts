import sharp from 'sharp';
import { rasterBytes, type Raster } from './canvas.ts';

/**
 * PNG settings: zlib level 1 without the per-row filter search is the fastest setting that still compresses
 * these smooth pictures well; adaptive filtering would make files smaller at a cost to every image that
 * outweighs the bytes saved.
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

/**
 * Paints and encodes `n` pictures in order, painting the next while the previous one is encoded (on
 * libuv's pool), but never more than one ahead: a 10-image request holds two rasters at a time, not ten.
 *
 * @example
 * const pngs = await encodeEach(req.n, (index) => renderArtwork(512, 512, theme, rngFor(index)));
 */
export async function encodeEach(n: number, paint: (index: number) => Raster & { hasAlpha?: boolean }): Promise<Buffer[]> {
  const pngs: Buffer[] = [];
  let encoding: Promise<Buffer> | undefined;
  for (let index = 0; index < n; index++) {
    const raster = paint(index);
    if (encoding !== undefined) pngs.push(await encoding);
    encoding = encodePng(raster);
  }
  if (encoding !== undefined) pngs.push(await encoding);
  return pngs;
}
