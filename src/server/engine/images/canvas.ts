import type { Rgb } from './theme.ts';

/** Raw 8-bit RGB pixels, row-major, no padding: what sharp takes as `raw` input. */
export interface Raster {
  readonly width: number;
  readonly height: number;
  readonly data: Buffer;
}

/** Entries in a radial profile: weight as a function of (distance / radius)², sampled 1024 times. */
const PROFILE_SIZE = 1024;

/** A radial profile: weights 0–256 indexed by ⌊(d/r)² · 1024⌋. */
export type Profile = Uint16Array;

function profile(weight: (distance: number) => number): Profile {
  const table = new Uint16Array(PROFILE_SIZE);
  for (let i = 0; i < PROFILE_SIZE; i++) {
    const w = weight(Math.sqrt((i + 0.5) / PROFILE_SIZE));
    table[i] = Math.round(256 * Math.min(1, Math.max(0, w)));
  }
  return table;
}

const smooth = (t: number): number => t * t * (3 - 2 * t);

/** Soft light: strongest in the middle, fading smoothly to nothing at the radius. */
export const GLOW = profile((d) => (1 - d * d) ** 2);
/** A solid disc with an edge softened over the outer 3 %. */
export const DISC = profile((d) => smooth(Math.min(1, (1 - d) / 0.03)));
/** A soft ring around 80 % of the radius. */
export const RING = profile((d) => smooth(Math.max(0, 1 - Math.abs(d - 0.8) / 0.12)));

/** A raster of the given size, all black. */
export function createRaster(width: number, height: number): Raster {
  return { width, height, data: Buffer.alloc(width * height * 3) };
}

/**
 * Fills the raster with a linear gradient through evenly spaced colour stops, along `angle` (radians).
 *
 * @example
 * fillGradient(raster, [[20, 30, 80], [240, 120, 90]], Math.PI / 2); // top to bottom
 */
export function fillGradient(raster: Raster, stops: readonly Rgb[], angle: number): void {
  const { width, height, data } = raster;
  const lut = gradientTable(stops);
  const last = lut.length / 3 - 1;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const extent = Math.abs(width * cos) + Math.abs(height * sin) || 1;
  // t = projection on the gradient axis, in 16.16 fixed point scaled to table entries.
  const scale = (last / extent) * 65536;
  const step = Math.round(cos * scale);
  let i = 0;
  for (let y = 0; y < height; y++) {
    let t = Math.round(((0.5 - width / 2) * cos + (y + 0.5 - height / 2) * sin + extent / 2) * scale);
    for (let x = 0; x < width; x++, t += step, i += 3) {
      let k = t >> 16;
      k = k < 0 ? 0 : k > last ? last : k;
      k *= 3;
      data[i] = lut[k]!;
      data[i + 1] = lut[k + 1]!;
      data[i + 2] = lut[k + 2]!;
    }
  }
}

function gradientTable(stops: readonly Rgb[]): Uint8Array {
  const size = 1024;
  const table = new Uint8Array(size * 3);
  const segments = Math.max(1, stops.length - 1);
  for (let i = 0; i < size; i++) {
    const position = (i / (size - 1)) * segments;
    const s = Math.min(segments - 1, Math.floor(position));
    const from = stops[s] ?? stops[0] ?? [0, 0, 0];
    const to = stops[s + 1] ?? from;
    const t = smooth(position - s);
    for (let c = 0; c < 3; c++) table[i * 3 + c] = Math.round(from[c]! + (to[c]! - from[c]!) * t);
  }
  return table;
}

/**
 * Blends `colour` into a circle with a radial weight profile (GLOW, DISC or RING) and an opacity 0–1.
 * Only the circle's chord on each row is visited, so small shapes cost little.
 *
 * @example
 * blendCircle(raster, 300, 200, 80, [255, 230, 180], 0.9, DISC);
 */
export function blendCircle(
  raster: Raster, cx: number, cy: number, radius: number, colour: Rgb, opacity: number, weights: Profile,
): void {
  const { width, height, data } = raster;
  const r2 = radius * radius;
  if (r2 < 1) return;
  const scale = PROFILE_SIZE / r2;
  const alpha = Math.round(Math.min(1, Math.max(0, opacity)) * 256);
  const [red, green, blue] = colour;
  const top = Math.max(0, Math.floor(cy - radius));
  const bottom = Math.min(height - 1, Math.ceil(cy + radius));
  for (let y = top; y <= bottom; y++) {
    const dy = y + 0.5 - cy;
    const dy2 = dy * dy;
    if (dy2 >= r2) continue;
    const half = Math.sqrt(r2 - dy2);
    const left = Math.max(0, Math.floor(cx - half));
    const right = Math.min(width - 1, Math.ceil(cx + half));
    let i = (y * width + left) * 3;
    for (let x = left; x <= right; x++, i += 3) {
      const dx = x + 0.5 - cx;
      const s = ((dx * dx + dy2) * scale) | 0;
      if (s >= PROFILE_SIZE) continue;
      const a = (weights[s]! * alpha) >> 8;
      if (a === 0) continue;
      const r = data[i]!;
      const g = data[i + 1]!;
      const b = data[i + 2]!;
      data[i] = r + (((red - r) * a) >> 8);
      data[i + 1] = g + (((green - g) * a) >> 8);
      data[i + 2] = b + (((blue - b) * a) >> 8);
    }
  }
}

/**
 * Paints everything below a curve (`ridge[x]` = the curve's y at column x) with a vertical gradient
 * from `topColour` (at the curve's highest point) to `bottomColour` (at the bottom edge); the pixel
 * the curve crosses is blended by coverage, so the skyline is anti-aliased.
 *
 * @example
 * fillBelow(raster, ridge, [60, 90, 70], [20, 40, 30]);
 */
export function fillBelow(raster: Raster, ridge: Float64Array, topColour: Rgb, bottomColour: Rgb): void {
  const { width, height, data } = raster;
  let highest = height;
  for (let x = 0; x < width; x++) highest = Math.min(highest, ridge[x]!);
  const first = Math.max(0, Math.floor(highest));
  const span = Math.max(1, height - first);
  for (let y = first; y < height; y++) {
    const t = (y - first) / span;
    const red = Math.round(topColour[0] + (bottomColour[0] - topColour[0]) * t);
    const green = Math.round(topColour[1] + (bottomColour[1] - topColour[1]) * t);
    const blue = Math.round(topColour[2] + (bottomColour[2] - topColour[2]) * t);
    let i = y * width * 3;
    for (let x = 0; x < width; x++, i += 3) {
      const edge = ridge[x]!;
      if (y + 1 <= edge) continue;
      if (y >= edge) {
        data[i] = red;
        data[i + 1] = green;
        data[i + 2] = blue;
      } else {
        const a = Math.round((y + 1 - edge) * 256);
        data[i] = data[i]! + (((red - data[i]!) * a) >> 8);
        data[i + 1] = data[i + 1]! + (((green - data[i + 1]!) * a) >> 8);
        data[i + 2] = data[i + 2]! + (((blue - data[i + 2]!) * a) >> 8);
      }
    }
  }
}
