import type { Pixels, Raster } from './canvas.ts';

/** Share of the painted pattern in every pixel, out of 256: enough to see it, not enough to hide the source. */
const PATTERN_SHARE = 90;

/**
 * A variation of the whole picture: its hues turned by `degrees` (luminance, hence the shapes, kept)
 * with the prompt's pattern laid over it. Alpha is kept as it is.
 *
 * @example
 * const result = vary(source, renderArtwork(512, 512, theme, rng), rng.range(60, 300));
 */
export function vary(source: Pixels, pattern: Raster, degrees: number): Pixels {
  const [m0, m1, m2, m3, m4, m5, m6, m7, m8] = hueRotation(degrees);
  const pixels = new Uint32Array(source.pixels.length);
  const from = source.pixels;
  const paint = pattern.pixels;
  const keep = 256 - PATTERN_SHARE;
  for (let p = 0; p < pixels.length; p++) {
    const v = from[p]!;
    const w = paint[p]!;
    const r = v & 0xff;
    const g = (v >>> 8) & 0xff;
    const b = (v >>> 16) & 0xff;
    const tr = clamp((m0 * r + m1 * g + m2 * b) >> 10);
    const tg = clamp((m3 * r + m4 * g + m5 * b) >> 10);
    const tb = clamp((m6 * r + m7 * g + m8 * b) >> 10);
    const nr = (tr * keep + (w & 0xff) * PATTERN_SHARE) >> 8;
    const ng = (tg * keep + ((w >>> 8) & 0xff) * PATTERN_SHARE) >> 8;
    const nb = (tb * keep + ((w >>> 16) & 0xff) * PATTERN_SHARE) >> 8;
    pixels[p] = ((v & 0xff000000) | (nb << 16) | (ng << 8) | nr) >>> 0;
  }
  return { width: source.width, height: source.height, hasAlpha: source.hasAlpha, pixels };
}

const clamp = (v: number): number => (v < 0 ? 0 : v > 255 ? 255 : v);

/** The hue-rotation matrix of CSS filters (luminance-preserving), in 22.10 fixed point, row-major. */
function hueRotation(degrees: number): [number, number, number, number, number, number, number, number, number] {
  const a = (degrees * Math.PI) / 180;
  const c = Math.cos(a);
  const s = Math.sin(a);
  const rows = [
    0.213 + c * 0.787 - s * 0.213, 0.715 - c * 0.715 - s * 0.715, 0.072 - c * 0.072 + s * 0.928,
    0.213 - c * 0.213 + s * 0.143, 0.715 + c * 0.285 + s * 0.14, 0.072 - c * 0.072 - s * 0.283,
    0.213 - c * 0.213 - s * 0.787, 0.715 - c * 0.715 + s * 0.715, 0.072 + c * 0.928 + s * 0.072,
  ];
  const [a0, a1, a2, a3, a4, a5, a6, a7, a8] = rows.map((v) => Math.round(v * 1024)) as [number, number, number, number, number, number, number, number, number];
  return [a0, a1, a2, a3, a4, a5, a6, a7, a8];
}
