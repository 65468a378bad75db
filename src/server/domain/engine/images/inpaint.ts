import { pack, type Pixels, type Raster } from './canvas.ts';

/** Share of the painted pattern in a changed pixel, out of 256; the rest is the source's. */
const PATTERN_SHARE = 192;
/** A changed pixel differs from the source by at least this much (sum over R, G, B). */
const MIN_CHANGE = 24;
/** Per-channel nudge where pattern and source are equal: 3 × 8 = MIN_CHANGE. */
const NUDGE = 8;

const clamp = (v: number): number => (v < 0 ? 0 : v > 255 ? 255 : v);

/**
 * Inpainting: pixels under the mask's white areas are repainted with the prompt's pattern (blended
 * with what was there, made fully opaque); every other pixel is copied exactly.
 *
 * @example
 * const result = inpaint(source, maskAt(mask, 512, 512), renderArtwork(512, 512, theme, rng));
 */
export function inpaint(source: Pixels, white: Uint8Array, pattern: Raster): Pixels {
  const pixels = source.pixels.slice();
  const paint = pattern.pixels;
  for (let p = 0; p < white.length; p++) {
    if (white[p] === 0) continue;
    const v = pixels[p]!;
    const w = paint[p]!;
    const r = v & 0xff;
    const g = (v >>> 8) & 0xff;
    const b = (v >>> 16) & 0xff;
    let nr = r + ((((w & 0xff) - r) * PATTERN_SHARE) >> 8);
    let ng = g + (((((w >>> 8) & 0xff) - g) * PATTERN_SHARE) >> 8);
    let nb = b + (((((w >>> 16) & 0xff) - b) * PATTERN_SHARE) >> 8);
    // Where the pattern nearly matches the source, stretch the change along the pattern's direction
    // (or, where they are equal, nudge towards mid-grey) just enough to be seen. Some jump there is
    // unavoidable: a continuous blend always leaves some pixel unchanged.
    const change = Math.abs(nr - r) + Math.abs(ng - g) + Math.abs(nb - b);
    if (change < MIN_CHANGE) {
      const stretch = change === 0 ? 0 : MIN_CHANGE / change;
      nr = clamp(r + Math.round((nr - r) * stretch));
      ng = clamp(g + Math.round((ng - g) * stretch));
      nb = clamp(b + Math.round((nb - b) * stretch));
      if (Math.abs(nr - r) + Math.abs(ng - g) + Math.abs(nb - b) < MIN_CHANGE) {
        nr = r < 128 ? r + NUDGE : r - NUDGE;
        ng = g < 128 ? g + NUDGE : g - NUDGE;
        nb = b < 128 ? b + NUDGE : b - NUDGE;
      }
    }
    pixels[p] = pack(nr, ng, nb);
  }
  return { width: source.width, height: source.height, hasAlpha: source.hasAlpha, pixels };
}
