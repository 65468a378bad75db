// The suite's own PNG decoder (no native code, so that the suite installs with no dependencies) against
// sharp's, on every kind of PNG; and the sizes of the other formats.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeImage, gradientPng, squareMaskPng } from '../../src/conformance/png.ts';

/** A picture with every value of each channel somewhere, and transparency. */
function picture(width: number, height: number): Buffer {
  const rgba = Buffer.alloc(width * height * 4);
  for (let i = 0; i < width * height; i++) rgba.set([(i * 7) & 255, (i * 13) & 255, (i * 29) & 255, 255 - ((i * 3) & 127)], i * 4);
  return rgba;
}

async function sharpPixels(png: Buffer): Promise<Buffer> {
  return (await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true })).data;
}

describe("the suite's PNG decoder", () => {
  const [width, height] = [37, 23];
  const input = () => sharp(picture(width, height), { raw: { width, height, channels: 4 } });
  const kinds: Array<[string, () => Promise<Buffer>]> = [
    ['RGBA', () => input().png().toBuffer()],
    ['RGB', () => input().removeAlpha().png().toBuffer()],
    ['grey', () => input().removeAlpha().greyscale().png().toBuffer()],
    ['grey and alpha', () => input().greyscale().png().toBuffer()],
    ['palette', () => input().png({ palette: true, colours: 16, dither: 0 }).toBuffer()],
    ['16 bits', () => input().toColourspace('rgb16').png().toBuffer()],
    ['interlaced', () => input().png({ progressive: true }).toBuffer()],
    ['every filter (adaptive)', () => input().png({ adaptiveFiltering: true, compressionLevel: 9 }).toBuffer()],
  ];
  it.each(kinds)('reads a %s PNG as sharp does', async (_kind, make) => {
    const png = await make();
    const decoded = await decodeImage(png.toString('base64'));
    expect(decoded).toMatchObject({ format: 'png', width, height });
    expect(decoded.pixels!.equals(await sharpPixels(png))).toBe(true);
  });

  it('writes the PNGs the inpainting check sends, which sharp reads back the same', async () => {
    for (const png of [await gradientPng(64), await squareMaskPng(64, 16, 48)]) {
      const decoded = await decodeImage(`data:image/png;base64,${png.toString('base64')}`);
      expect(decoded.pixels!.equals(await sharpPixels(png))).toBe(true);
    }
  });

  it('gives the size of JPEG, WebP and GIF pictures, and refuses what is not an image', async () => {
    for (const format of ['jpeg', 'webp', 'gif'] as const) {
      const bytes = await input().toFormat(format).toBuffer();
      expect(await decodeImage(bytes.toString('base64'))).toMatchObject({ format, width, height });
    }
    const lossless = await input().webp({ lossless: true }).toBuffer();
    expect(await decodeImage(lossless.toString('base64'))).toMatchObject({ format: 'webp', width, height });
    await expect(decodeImage(Buffer.from('hello').toString('base64'))).rejects.toThrow(/not a PNG, JPEG, WebP or GIF/);
  });
});
