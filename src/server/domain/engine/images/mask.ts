import type { Raster } from './canvas.ts';

/**
 * Which pixels a mask marks for editing, at width×height: 1 where the mask is "white" (luminance ≥ 128
 * and alpha ≥ 128; a mask without alpha counts as opaque), 0 elsewhere. A mask of another size is
 * scaled by nearest neighbour, so it stays binary and a sharp edge stays sharp.
 *
 * @example
 * const white = maskAt(mask, 512, 512); // white[y * 512 + x] === 1 → change that pixel
 */
export function maskAt(mask: Raster, width: number, height: number): Uint8Array {
  const { pixels } = mask;
  const own = new Uint8Array(pixels.length);
  for (let p = 0; p < pixels.length; p++) {
    const v = pixels[p]!;
    // Rec. 601 luma in integers: 77 + 150 + 29 = 256, so white (255, 255, 255) gives 255.
    const luma = (77 * (v & 0xff) + 150 * ((v >>> 8) & 0xff) + 29 * ((v >>> 16) & 0xff)) >> 8;
    own[p] = luma >= 128 && v >>> 24 >= 128 ? 1 : 0;
  }
  if (mask.width === width && mask.height === height) return own;

  // Nearest neighbour: the mask pixel whose centre is closest to the target pixel's centre.
  const columns = new Uint32Array(width);
  for (let x = 0; x < width; x++) columns[x] = Math.min(mask.width - 1, Math.floor(((x + 0.5) * mask.width) / width));
  const white = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = Math.min(mask.height - 1, Math.floor(((y + 0.5) * mask.height) / height)) * mask.width;
    for (let x = 0, p = y * width; x < width; x++, p++) white[p] = own[row + columns[x]!]!;
  }
  return white;
}
