/**
 * Images for and from the image endpoints: decoding a `b64_json` result to its size and pixels, and
 * drawing deterministic source images and masks for the inpainting check (sharp).
 */
import sharp from 'sharp';

export interface DecodedImage {
  format: string;
  width: number;
  height: number;
  /** RGBA pixels, row by row. */
  pixels: Buffer;
}

/**
 * Decodes base64 image data (a bare string or a `data:` URL); throws when it is not an image.
 * @example
 * const img = await decodeImage(result.data[0].b64_json); // { format: 'png', width: 512, height: 512, … }
 */
export async function decodeImage(b64: string): Promise<DecodedImage> {
  const bytes = Buffer.from(b64.replace(/^data:[^,]*,/, ''), 'base64');
  const image = sharp(bytes, { failOn: 'error' });
  const meta = await image.metadata();
  const { data, info } = await image.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { format: meta.format ?? 'unknown', width: info.width, height: info.height, pixels: data };
}

/** A square PNG with a colour gradient, so that any change of a pixel shows. */
export async function gradientPng(size: number): Promise<Buffer> {
  const pixels = Buffer.alloc(size * size * 3);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const i = (y * size + x) * 3;
      pixels[i] = (x * 255) / (size - 1);
      pixels[i + 1] = (y * 255) / (size - 1);
      pixels[i + 2] = ((x + y) * 127) / (size - 1);
    }
  }
  return sharp(pixels, { raw: { width: size, height: size, channels: 3 } }).png().toBuffer();
}

/** A square black PNG mask with a white square (the area to modify) at `[from, to)` on both axes. */
export async function squareMaskPng(size: number, from: number, to: number): Promise<Buffer> {
  const pixels = Buffer.alloc(size * size * 3);
  for (let y = from; y < to; y++) pixels.fill(255, (y * size + from) * 3, (y * size + to) * 3);
  return sharp(pixels, { raw: { width: size, height: size, channels: 3 } }).png().toBuffer();
}

/** How many pixels differ between two RGBA images of the same size, counting only where `include` says. */
export function changedPixels(a: DecodedImage, b: DecodedImage, include: (x: number, y: number) => boolean): number {
  let changed = 0;
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      if (!include(x, y)) continue;
      const i = (y * a.width + x) * 4;
      if (a.pixels.readUInt32BE(i) !== b.pixels.readUInt32BE(i)) changed++;
    }
  }
  return changed;
}
