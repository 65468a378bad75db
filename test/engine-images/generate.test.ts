import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/server/domain/errors.ts';
import { generateImages, generationSizes } from '../../src/server/domain/engine/images/index.ts';
import { changedShare, decode, luma } from './pixels.ts';

describe('generateImages', () => {
  it('makes real RGB PNGs of exactly each supported size', async () => {
    for (const size of generationSizes) {
      const [width, height] = size.split('x').map(Number) as [number, number];
      const [png] = await generateImages({ prompt: 'A lighthouse on a cliff at dawn', width, height, n: 1 });
      const meta = await sharp(png!).metadata();
      expect(meta).toMatchObject({ format: 'png', width, height, channels: 3 });
      const image = await decode(png!);
      expect(image.data.length).toBe(width * height * 3);
    }
  });

  it('supports any size the server passes, including non-square ones', async () => {
    const [png] = await generateImages({ prompt: 'wide', width: 300, height: 120, n: 1 });
    expect(await sharp(png!).metadata()).toMatchObject({ format: 'png', width: 300, height: 120 });
  });

  it('returns n images and the same bytes for the same prompt, size and index', async () => {
    const request = { prompt: 'a quiet lake at night', width: 256, height: 256, n: 3 };
    const first = await generateImages(request);
    const again = await generateImages(request);
    expect(first).toHaveLength(3);
    first.forEach((png, index) => expect(png.equals(again[index]!)).toBe(true));
    // Index 0 does not depend on how many images were asked for.
    const [alone] = await generateImages({ ...request, n: 1 });
    expect(alone!.equals(first[0]!)).toBe(true);
  });

  it('paints a different picture for each index and each prompt', async () => {
    const [a, b] = await generateImages({ prompt: 'purple dreams', width: 256, height: 256, n: 2 });
    const [c] = await generateImages({ prompt: 'purple dreams!', width: 256, height: 256, n: 1 });
    const [pa, pb, pc] = await Promise.all([decode(a!), decode(b!), decode(c!)]);
    expect(changedShare(pa, pb)).toBeGreaterThan(0.5);
    expect(changedShare(pa, pc)).toBeGreaterThan(0.5);
  });

  it('paints smooth pictures with real contrast: not noise, not a flat colour', async () => {
    // `constructor`: a word every object has a property for; it once made the hue NaN.
    const prompts = ['a red fox', 'abstract thoughts', 'green forest river', 'neon city at night', 'hello', 'the constructor of a house'];
    for (const prompt of prompts) {
      const [png] = await generateImages({ prompt, width: 256, height: 256, n: 1 });
      const image = await decode(png!);
      const y = luma(image);
      let step = 0;
      for (let row = 0; row < 256; row++) {
        for (let x = 1; x < 256; x++) step += Math.abs(y[row * 256 + x]! - y[row * 256 + x - 1]!);
      }
      const mean = y.reduce((s, v) => s + v, 0) / y.length;
      const spread = Math.sqrt(y.reduce((s, v) => s + (v - mean) ** 2, 0) / y.length);
      const colours = new Set<number>();
      for (let i = 0; i < image.data.length; i += 3) colours.add(image.data.readUIntBE(i, 3));
      expect(step / (256 * 255), `neighbour difference for "${prompt}"`).toBeLessThan(3);
      expect(spread, `contrast for "${prompt}"`).toBeGreaterThan(8);
      expect(colours.size, `colours for "${prompt}"`).toBeGreaterThan(200);
    }
  });

  it('answers 400 for sizes and counts outside the limits (D9)', async () => {
    const bad = [
      { width: 0, height: 256, n: 1 },
      { width: 256, height: 4097, n: 1 },
      { width: 25.5, height: 256, n: 1 },
      { width: 256, height: 256, n: 0 },
      { width: 256, height: 256, n: 11 },
    ];
    for (const dims of bad) {
      const failure = await generateImages({ prompt: 'x', ...dims }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(GatewayError);
      expect((failure as GatewayError).kind).toBe('invalid_request');
    }
  });

  it('lists the generation sizes of decision D12', () => {
    expect([...generationSizes]).toEqual(['256x256', '512x512', '1024x1024']);
  });
});
