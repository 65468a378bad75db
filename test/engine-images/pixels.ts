/** Test helpers: make images from a pixel function, and decode PNGs back to raw pixels. */
import sharp from 'sharp';

export interface RawImage {
  width: number;
  height: number;
  channels: number;
  data: Buffer;
}

/** Decodes any image to raw 8-bit pixels, channels as stored (RGB stays 3, RGBA stays 4). */
export async function decode(bytes: Buffer): Promise<RawImage> {
  const { data, info } = await sharp(bytes).raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels: info.channels, data };
}

/** A raw image whose pixel (x, y) is `paint(x, y)` (3 or 4 values). */
export function raw(width: number, height: number, channels: 3 | 4, paint: (x: number, y: number) => number[]): RawImage {
  const data = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) data.set(paint(x, y).slice(0, channels), (y * width + x) * channels);
  }
  return { width, height, channels, data };
}

/** Encodes a raw image in a format (lossless for PNG and WebP). */
export function encode(image: RawImage, format: 'png' | 'jpeg' | 'webp' | 'gif' = 'png'): Promise<Buffer> {
  const input = sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels as 3 | 4 } });
  if (format === 'webp') return input.webp({ lossless: true }).toBuffer();
  if (format === 'jpeg') return input.jpeg({ quality: 90 }).toBuffer();
  if (format === 'gif') return input.gif().toBuffer();
  return input.png().toBuffer();
}

/** A busy, textured source: every pixel differs from its neighbours, so a one-pixel slip shows. */
export function texture(width: number, height: number, channels: 3 | 4 = 3): RawImage {
  return raw(width, height, channels, (x, y) => [
    (x * 7 + y * 3) & 0xff,
    (x * y + 17) & 0xff,
    (x ^ y) * 5 & 0xff,
    channels === 4 ? 60 + ((x + y) % 190) : 255,
  ]);
}

/** A pixel as an array of its channels. */
export function pixel(image: RawImage, x: number, y: number): number[] {
  const i = (y * image.width + x) * image.channels;
  return [...image.data.subarray(i, i + image.channels)];
}

/** Share of pixels (0–1) that differ between two images of the same size and channels. */
export function changedShare(a: RawImage, b: RawImage): number {
  let changed = 0;
  for (let i = 0; i < a.data.length; i += a.channels) {
    if (a.data.compare(b.data, i, i + a.channels, i, i + a.channels) !== 0) changed++;
  }
  return changed / (a.width * a.height);
}

/** Rec. 601 luma of every pixel. */
export function luma(image: RawImage): Float64Array {
  const out = new Float64Array(image.width * image.height);
  for (let p = 0, i = 0; p < out.length; p++, i += image.channels) {
    out[p] = 0.299 * image.data[i]! + 0.587 * image.data[i + 1]! + 0.114 * image.data[i + 2]!;
  }
  return out;
}

/** Pearson correlation of two series. */
export function correlation(a: Float64Array, b: Float64Array): number {
  const mean = (v: Float64Array): number => v.reduce((s, x) => s + x, 0) / v.length;
  const ma = mean(a);
  const mb = mean(b);
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < a.length; i++) {
    num += (a[i]! - ma) * (b[i]! - mb);
    da += (a[i]! - ma) ** 2;
    db += (b[i]! - mb) ** 2;
  }
  return num / Math.sqrt(da * db);
}
