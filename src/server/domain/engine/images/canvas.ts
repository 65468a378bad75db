import { endianness } from 'node:os';
import type { Rgb } from './theme.ts';

/**
 * A picture being painted: one 32-bit word per pixel, bytes R, G, B, A in memory (A always 255), so
 * sharp reads it as raw RGBA. Whole-word loads and stores are several times faster than byte-wise
 * access in V8, which is what makes a 1024×1024 picture cheap to paint.
 */
export interface Raster {
  readonly width: number;
  readonly height: number;
  readonly pixels: Uint32Array;
}

/** An image from a request (or made from one): a raster that remembers whether its alpha matters. */
export interface Pixels extends Raster {
  /** False for RGB sources: their alpha is opaque filler, dropped again when encoding. */
  readonly hasAlpha: boolean;
}

// Packing assumes little-endian words (every platform sharp ships binaries for).
if (endianness() !== 'LE') throw new Error('The image engine packs pixels for little-endian machines only.');

/** One packed pixel. */
export const pack = (r: number, g: number, b: number): number => (0xff000000 | (b << 16) | (g << 8) | r) >>> 0;

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

/** A raster of the given size, all transparent black until painted. */
export function createRaster(width: number, height: number): Raster {
  return { width, height, pixels: new Uint32Array(width * height) };
}

/** The raster's bytes as sharp's raw RGBA input (no copy). */
export function rasterBytes(raster: Raster): Buffer {
  const { pixels } = raster;
  return Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength);
}

/** Raw RGBA bytes (from sharp) as packed pixels; shares the memory when it is word-aligned. */
export function wordsOf(rgba: Buffer): Uint32Array {
  if (rgba.byteOffset % 4 === 0) return new Uint32Array(rgba.buffer, rgba.byteOffset, rgba.byteLength / 4);
  return new Uint32Array(Uint8Array.from(rgba).buffer);
}

/**
 * Fills the raster with a linear gradient through evenly spaced colour stops, along `angle` (radians).
 *
 * @example
 * fillGradient(raster, [[20, 30, 80], [240, 120, 90]], Math.PI / 2); // top to bottom
 */
export function fillGradient(raster: Raster, stops: readonly Rgb[], angle: number): void {
  const { width, height, pixels } = raster;
  const lut = gradientTable(stops);
  const last = lut.length - 1;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const extent = Math.abs(width * cos) + Math.abs(height * sin) || 1;
  // t = projection on the gradient axis, in 16.16 fixed point scaled to table entries.
  const scale = (last / extent) * 65536;
  const step = Math.round(cos * scale);
  let p = 0;
  for (let y = 0; y < height; y++) {
    if (step === 0) {
      // A vertical gradient: every row is one colour, and a native fill is far faster than a loop.
      const k = Math.round(((y + 0.5 - height / 2) * sin + extent / 2) * scale) >> 16;
      pixels.fill(lut[k < 0 ? 0 : k > last ? last : k]!, p, p + width);
      p += width;
      continue;
    }
    // `| 0` keeps t a 32-bit integer for V8; a double here makes the loop several times slower.
    let t = Math.round(((0.5 - width / 2) * cos + (y + 0.5 - height / 2) * sin + extent / 2) * scale) | 0;
    for (let x = 0; x < width; x++, t = (t + step) | 0, p++) {
      const k = t >> 16;
      pixels[p] = lut[k < 0 ? 0 : k > last ? last : k]!;
    }
  }
}

/**
 * Fills the raster with a radial gradient: the first stop at (cx, cy), the last at `radius` and beyond.
 * Indexed by squared distance, so colours change slowly near the centre, like a light.
 *
 * @example
 * fillRadialGradient(raster, [[250, 200, 150], [40, 20, 60]], 200, 100, 900);
 */
export function fillRadialGradient(raster: Raster, stops: readonly Rgb[], cx: number, cy: number, radius: number): void {
  const { width, height, pixels } = raster;
  const lut = gradientTable(stops);
  const last = lut.length - 1;
  const scale = last / Math.max(1, radius * radius);
  let p = 0;
  for (let y = 0; y < height; y++) {
    const dy = y + 0.5 - cy;
    const dy2 = dy * dy;
    for (let x = 0; x < width; x++, p++) {
      const dx = x + 0.5 - cx;
      const k = ((dx * dx + dy2) * scale) | 0;
      pixels[p] = lut[k > last ? last : k]!;
    }
  }
}

function gradientTable(stops: readonly Rgb[]): Uint32Array {
  const table = new Uint32Array(1024);
  const segments = Math.max(1, stops.length - 1);
  for (let i = 0; i < table.length; i++) {
    const position = (i / (table.length - 1)) * segments;
    const s = Math.min(segments - 1, Math.floor(position));
    const from = stops[s] ?? stops[0] ?? [0, 0, 0];
    const to = stops[s + 1] ?? from;
    const t = smooth(position - s);
    const channel = (c: 0 | 1 | 2): number => Math.round(from[c] + (to[c] - from[c]) * t);
    table[i] = pack(channel(0), channel(1), channel(2));
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
  const { width, height, pixels } = raster;
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
    for (let x = left, p = y * width + left; x <= right; x++, p++) {
      const dx = x + 0.5 - cx;
      const s = ((dx * dx + dy2) * scale) | 0;
      if (s >= PROFILE_SIZE) continue;
      const a = (weights[s]! * alpha) >> 8;
      if (a === 0) continue;
      const v = pixels[p]!;
      const r = v & 0xff;
      const g = (v >>> 8) & 0xff;
      const b = (v >>> 16) & 0xff;
      pixels[p] = pack(r + (((red - r) * a) >> 8), g + (((green - g) * a) >> 8), b + (((blue - b) * a) >> 8));
    }
  }
}

/**
 * Paints the band between a curve (`ridge[x]`, the y of its edge at column x) and `cover[x]` (where
 * something nearer, painted later, hides it completely), with a vertical gradient from `topColour`
 * to `bottomColour`. The pixel the edge crosses is blended by coverage, so skylines are anti-aliased;
 * hidden pixels are skipped, so overlapping layers cost each pixel about one write.
 *
 * @example
 * fillBelow(raster, ridge, cover, [60, 90, 70], [20, 40, 30]);
 */
export function fillBelow(
  raster: Raster, ridge: Float64Array, cover: Float64Array, topColour: Rgb, bottomColour: Rgb,
): void {
  const { width, height, pixels } = raster;
  // Integer bounds per column: solid from `from[x]` (the first row wholly below the edge) to `to[x]`.
  const from = new Int32Array(width);
  const to = new Int32Array(width);
  let first = height;
  let end = 0;
  for (let x = 0; x < width; x++) {
    from[x] = Math.max(0, Math.ceil(ridge[x]!));
    to[x] = Math.min(height, Math.ceil(cover[x]!));
    first = Math.min(first, Math.max(0, Math.floor(ridge[x]!)));
    end = Math.max(end, to[x]!);
  }
  const span = Math.max(1, height - first);
  const colourAt = (y: number): number => {
    const t = (y - first) / span;
    return pack(
      Math.round(topColour[0] + (bottomColour[0] - topColour[0]) * t),
      Math.round(topColour[1] + (bottomColour[1] - topColour[1]) * t),
      Math.round(topColour[2] + (bottomColour[2] - topColour[2]) * t),
    );
  };
  for (let y = first; y < end; y++) {
    const solid = colourAt(y);
    for (let x = 0, p = y * width; x < width; x++, p++) {
      if (y >= from[x]! && y < to[x]!) pixels[p] = solid;
    }
  }
  // The pixel each column's edge crosses: blended by how much of it lies below the edge.
  for (let x = 0; x < width; x++) {
    const edge = ridge[x]!;
    const y = Math.floor(edge);
    if (y < 0 || y >= to[x]! || y === edge) continue;
    const a = ((y + 1 - edge) * 256) | 0;
    const solid = colourAt(y);
    const p = y * width + x;
    const v = pixels[p]!;
    const r = v & 0xff;
    const g = (v >>> 8) & 0xff;
    const b = (v >>> 16) & 0xff;
    pixels[p] = pack(
      r + ((((solid & 0xff) - r) * a) >> 8),
      g + (((((solid >>> 8) & 0xff) - g) * a) >> 8),
      b + (((((solid >>> 16) & 0xff) - b) * a) >> 8),
    );
  }
}
