import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeImageInput, editImages, type DecodedImage } from '../../src/server/domain/engine/images/index.ts';
import { changedShare, correlation, decode, encode, luma, pixel, raw, texture, type RawImage } from './pixels.ts';

async function input(image: RawImage, format: 'png' | 'jpeg' | 'webp' = 'png'): Promise<DecodedImage> {
  return decodeImageInput((await encode(image, format)).toString('base64'), 'image');
}

/** A mask: white inside the rectangle [x0, x1) × [y0, y1), black elsewhere. */
function rectangleMask(width: number, height: number, x0: number, y0: number, x1: number, y1: number): RawImage {
  return raw(width, height, 3, (x, y) => (x >= x0 && x < x1 && y >= y0 && y < y1 ? [255, 255, 255] : [0, 0, 0]));
}

/** Checks every pixel: outside `white(x, y)` exactly as in `source` (RGB), inside different. */
function expectOnlyMaskedChanged(result: RawImage, source: RawImage, white: (x: number, y: number) => boolean): void {
  expect([result.width, result.height]).toEqual([source.width, source.height]);
  let kept = 0;
  let changed = 0;
  for (let y = 0; y < source.height; y++) {
    for (let x = 0; x < source.width; x++) {
      const i = (y * source.width + x) * source.channels;
      const j = (y * result.width + x) * result.channels;
      const same = source.data.compare(result.data, j, j + 3, i, i + 3) === 0;
      if (white(x, y) && same) expect.fail(`masked pixel (${x}, ${y}) did not change`);
      if (!white(x, y) && !same) {
        expect.fail(`pixel (${x}, ${y}) outside the mask changed: ${pixel(source, x, y)} → ${pixel(result, x, y)}`);
      }
      if (same) kept++;
      else changed++;
    }
  }
  expect(changed).toBeGreaterThan(0);
  expect(kept).toBeGreaterThan(0);
}

describe('editImages with a mask (inpainting)', () => {
  it('changes only the white area, every other pixel byte-identical (512×512 PNG, lossless PNG out)', async () => {
    const source = texture(512, 512);
    const mask = rectangleMask(512, 512, 100, 150, 300, 220);
    const image = await input(source);
    const maskImage = await decodeImageInput((await encode(mask)).toString('base64'), 'mask');
    const [png] = await editImages({ prompt: 'a red boat', image, mask: maskImage, width: 512, height: 512, n: 1 });
    expect(await sharp(png!).metadata()).toMatchObject({ format: 'png', width: 512, height: 512, channels: 3 });
    expectOnlyMaskedChanged(await decode(png!), source, (x, y) => x >= 100 && x < 300 && y >= 150 && y < 220);
  });

  it('reads a JPEG source from a data: URL and keeps its decoded pixels exactly', async () => {
    const jpeg = await encode(texture(96, 64), 'jpeg');
    const image = await decodeImageInput(`data:image/jpeg;base64,${jpeg.toString('base64')}`, 'image');
    const mask = await decodeImageInput(
      `data:image/png;base64,${(await encode(rectangleMask(96, 64, 0, 0, 40, 64))).toString('base64')}`, 'mask');
    const [png] = await editImages({ prompt: 'snow', image, mask, width: 96, height: 64, n: 1 });
    const decodedSource = await decode(jpeg);
    expectOnlyMaskedChanged(await decode(png!), decodedSource, (x) => x < 40);
  });

  it('counts as white only luminance ≥ 128 with alpha ≥ 128', async () => {
    // Columns: 0 grey 127, 1 grey 128, 2 white but alpha 127, 3 white alpha 128, 4 pure blue, 5 yellow.
    const shades = [[127, 127, 127, 255], [128, 128, 128, 255], [255, 255, 255, 127], [255, 255, 255, 128], [0, 0, 255, 255], [255, 255, 0, 255]];
    const mask = raw(6, 4, 4, (x) => shades[x]!);
    const source = texture(6, 4);
    const [png] = await editImages({
      prompt: 'threshold', image: await input(source), width: 6, height: 4, n: 1,
      mask: await decodeImageInput((await encode(mask)).toString('base64'), 'mask'),
    });
    expectOnlyMaskedChanged(await decode(png!), source, (x) => x === 1 || x === 3 || x === 5);
  });

  it('scales a mask of another size by nearest neighbour, so it stays binary', async () => {
    // A 4×4 checkerboard mask over a 64×64 image: each mask pixel covers an exact 16×16 block.
    const mask = raw(4, 4, 3, (x, y) => ((x + y) % 2 === 0 ? [255, 255, 255] : [0, 0, 0]));
    const source = texture(64, 64);
    const [png] = await editImages({
      prompt: 'checkers', image: await input(source), width: 64, height: 64, n: 1,
      mask: await decodeImageInput((await encode(mask)).toString('base64'), 'mask'),
    });
    expectOnlyMaskedChanged(await decode(png!), source, (x, y) => (Math.floor(x / 16) + Math.floor(y / 16)) % 2 === 0);
  });

  it('scales the source and the mask to the requested size', async () => {
    const source = raw(100, 50, 3, (x) => (x < 50 ? [200, 40, 40] : [40, 40, 200]));
    const mask = rectangleMask(100, 50, 50, 0, 100, 50); // right half
    const [png] = await editImages({
      prompt: 'stretch', image: await input(source), width: 64, height: 64, n: 1,
      mask: await decodeImageInput((await encode(mask)).toString('base64'), 'mask'),
    });
    const result = await decode(png!);
    expect([result.width, result.height]).toEqual([64, 64]);
    // Left of the seam the red half survives; the right half is repainted and no longer the source's blue.
    expect(pixel(result, 10, 32)).toEqual([200, 40, 40]);
    expect(pixel(result, 50, 32)).not.toEqual([40, 40, 200]);
  });

  it('keeps an RGBA source RGBA: unchanged pixels keep their alpha, painted ones become opaque', async () => {
    const source = texture(32, 32, 4);
    const [png] = await editImages({
      prompt: 'glass', image: await input(source), width: 32, height: 32, n: 1,
      mask: await decodeImageInput((await encode(rectangleMask(32, 32, 8, 8, 16, 16))).toString('base64'), 'mask'),
    });
    const result = await decode(png!);
    expect(result.channels).toBe(4);
    for (let y = 0; y < 32; y++) {
      for (let x = 0; x < 32; x++) {
        const inside = x >= 8 && x < 16 && y >= 8 && y < 16;
        if (inside) expect(pixel(result, x, y)[3]).toBe(255);
        else expect(pixel(result, x, y)).toEqual(pixel(source, x, y));
      }
    }
  });

  it('is deterministic and gives n different results', async () => {
    const image = await input(texture(64, 64));
    const mask = await decodeImageInput((await encode(rectangleMask(64, 64, 0, 0, 64, 32))).toString('base64'), 'mask');
    const request = { prompt: 'fireworks', image, mask, width: 64, height: 64, n: 3 };
    const first = await editImages(request);
    const again = await editImages(request);
    first.forEach((png, i) => expect(png.equals(again[i]!)).toBe(true));
    const [a, b, c] = await Promise.all(first.map(decode));
    expect(changedShare(a!, b!)).toBeGreaterThan(0.3);
    expect(changedShare(b!, c!)).toBeGreaterThan(0.3);
    const [other] = await editImages({ ...request, prompt: 'fireworks!', n: 1 });
    expect(other!.equals(first[0]!)).toBe(false);
  });

  it('paints differently for a different source, even with the same prompt', async () => {
    const base = texture(64, 64);
    const touched = raw(64, 64, 3, (x, y) => (x === 63 && y === 63 ? [1, 2, 3] : pixel(base, x, y)));
    const mask = await decodeImageInput((await encode(rectangleMask(64, 64, 0, 0, 64, 32))).toString('base64'), 'mask');
    const results = await Promise.all([base, touched].map(async (source) =>
      decode((await editImages({ prompt: 'same prompt', image: await input(source), mask, width: 64, height: 64, n: 1 }))[0]!)));
    expect(changedShare(results[0]!, results[1]!)).toBeGreaterThan(0.2);
  });

  it('returns the source unchanged when the mask has no white pixel', async () => {
    const source = texture(16, 16);
    const [png] = await editImages({
      prompt: 'nothing', image: await input(source), width: 16, height: 16, n: 1,
      mask: await decodeImageInput((await encode(rectangleMask(16, 16, 0, 0, 0, 0))).toString('base64'), 'mask'),
    });
    expect((await decode(png!)).data.equals(source.data)).toBe(true);
  });
});

describe('editImages without a mask (variation)', () => {
  // A picture with clear structure: a dark sky, a bright disc and a mid-grey ground.
  const scene = raw(128, 128, 3, (x, y) => {
    if ((x - 40) ** 2 + (y - 40) ** 2 < 400) return [250, 230, 120];
    return y < 80 ? [30, 50, 120 + y] : [90 + (x % 7), 120, 60];
  });

  it('changes the whole picture visibly but keeps it recognisable', async () => {
    const [png] = await editImages({ prompt: 'autumn', image: await input(scene), width: 128, height: 128, n: 1 });
    const result = await decode(png!);
    expect([result.width, result.height, result.channels]).toEqual([128, 128, 3]);
    let difference = 0;
    for (let i = 0; i < scene.data.length; i++) difference += Math.abs(scene.data[i]! - result.data[i]!);
    expect(difference / scene.data.length).toBeGreaterThan(20);
    expect(changedShare(scene, result)).toBeGreaterThan(0.9);
    expect(correlation(luma(scene), luma(result))).toBeGreaterThan(0.6);
  });

  it('is deterministic per prompt, source, size and index, with n distinct results', async () => {
    const image = await input(scene);
    const first = await editImages({ prompt: 'autumn', image, width: 128, height: 128, n: 3 });
    const again = await editImages({ prompt: 'autumn', image, width: 128, height: 128, n: 3 });
    first.forEach((png, i) => expect(png.equals(again[i]!)).toBe(true));
    const [a, b, c] = await Promise.all(first.map(decode));
    expect(changedShare(a!, b!)).toBeGreaterThan(0.5);
    expect(changedShare(a!, c!)).toBeGreaterThan(0.5);
    const [otherPrompt] = await editImages({ prompt: 'winter', image, width: 128, height: 128, n: 1 });
    const otherSource = await input(raw(128, 128, 3, (x, y) => pixel(scene, 127 - x, y)));
    const [otherImage] = await editImages({ prompt: 'autumn', image: otherSource, width: 128, height: 128, n: 1 });
    expect(otherPrompt!.equals(first[0]!)).toBe(false);
    expect(otherImage!.equals(first[0]!)).toBe(false);
  });

  it('scales the source to the requested size', async () => {
    const [png] = await editImages({ prompt: 'big', image: await input(scene, 'webp'), width: 512, height: 512, n: 1 });
    expect(await sharp(png!).metadata()).toMatchObject({ format: 'png', width: 512, height: 512 });
  });
});
