// An edit prepared for OpenAI's image API: the source scaled as the engine's own edit scales it, the mask in
// OpenAI's convention (transparent where the picture changes), the same errors for bad input, and the task
// as the image workers run it.
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/server/domain/errors.ts';
import { decodeImageInput, editImageInputs, prepareOpenAiEdit } from '../../src/server/domain/engine/images/index.ts';
import { startEngines } from '../../src/server/workers/engines.ts';
import { decode, encode, pixel, raw, texture, type RawImage } from './pixels.ts';

async function base64(image: RawImage, format: 'png' | 'jpeg' | 'webp' | 'gif' = 'png'): Promise<string> {
  return (await encode(image, format)).toString('base64');
}

/** Checks every pixel of a prepared mask: RGBA, transparent white where `changes(x, y)`, opaque black elsewhere. */
function expectMask(mask: RawImage, width: number, height: number, changes: (x: number, y: number) => boolean): void {
  expect([mask.width, mask.height, mask.channels]).toEqual([width, height, 4]);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const expected = changes(x, y) ? [255, 255, 255, 0] : [0, 0, 0, 255];
      if (pixel(mask, x, y).join() !== expected.join()) expect.fail(`mask pixel (${x}, ${y}) is ${pixel(mask, x, y)}, not ${expected}`);
    }
  }
}

async function rejection(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(GatewayError);
  return error as GatewayError;
}

describe('prepareOpenAiEdit', () => {
  it('scales the source and the mask as the engine edits them: outside the mask the engine keeps exactly the prepared pixels', async () => {
    const source = await base64(texture(300, 200));
    const mask = await base64(raw(100, 50, 3, (x, y) => (x >= 20 && x < 70 && y >= 10 && y < 30 ? [255, 255, 255] : [0, 0, 0])));
    const prepared = await prepareOpenAiEdit({ image: source, mask, width: 512, height: 512 });
    const image = await decode(prepared.image);
    const alpha = await decode(prepared.mask!);
    expect([image.width, image.height, image.channels]).toEqual([512, 512, 3]);
    const scaled = await decodeImageInput(source, 'image', { width: 512, height: 512 });
    const rgba = Buffer.from(scaled.pixels.buffer, scaled.pixels.byteOffset, scaled.pixels.byteLength);
    for (let p = 0; p < 512 * 512; p++) {
      if (image.data.compare(rgba, p * 4, p * 4 + 3, p * 3, p * 3 + 3) !== 0) expect.fail(`pixel ${p} is not the scaled source's`);
    }

    const [edited] = await editImageInputs({ prompt: 'a kite', image: source, mask, width: 512, height: 512, n: 1 });
    const result = await decode(edited!);
    let changing = 0;
    for (let y = 0; y < 512; y++) {
      for (let x = 0; x < 512; x++) {
        const kept = pixel(alpha, x, y)[3] === 255;
        if (!kept) changing++;
        else if (pixel(result, x, y).join() !== pixel(image, x, y).join()) expect.fail(`pixel (${x}, ${y}) outside the mask differs from the engine's`);
      }
    }
    // The 50×20 white rectangle of a 100×50 mask, at 512×512: about 256×205 pixels.
    expect(changing).toBeGreaterThan(250 * 200);
    expect(changing).toBeLessThan(260 * 210);
  });

  it('makes the mask transparent exactly where it is white (luminance ≥ 128 and alpha ≥ 128)', async () => {
    // Columns: 0 grey 127, 1 grey 128, 2 white but alpha 127, 3 white alpha 128, 4 pure blue, 5 yellow.
    const shades = [[127, 127, 127, 255], [128, 128, 128, 255], [255, 255, 255, 127], [255, 255, 255, 128], [0, 0, 255, 255], [255, 255, 0, 255]];
    const prepared = await prepareOpenAiEdit({ image: await base64(texture(6, 4)), mask: await base64(raw(6, 4, 4, (x) => shades[x]!)), width: 6, height: 4 });
    expect((await decode(prepared.image)).data.equals(texture(6, 4).data)).toBe(true);
    expectMask(await decode(prepared.mask!), 6, 4, (x) => x === 1 || x === 3 || x === 5);
  });

  it('scales a mask of another size by nearest neighbour, so its edges stay sharp', async () => {
    // A 4×4 checkerboard over 64×64: each mask pixel covers an exact 16×16 block.
    const checkers = raw(4, 4, 3, (x, y) => ((x + y) % 2 === 0 ? [255, 255, 255] : [0, 0, 0]));
    const prepared = await prepareOpenAiEdit({ image: await base64(texture(64, 64)), mask: `data:image/png;base64,${await base64(checkers)}`, width: 64, height: 64 });
    expectMask(await decode(prepared.mask!), 64, 64, (x, y) => (Math.floor(x / 16) + Math.floor(y / 16)) % 2 === 0);
  });

  it('keeps an RGBA source RGBA, and prepares no mask without one', async () => {
    const source = texture(32, 32, 4);
    const prepared = await prepareOpenAiEdit({ image: await base64(source, 'webp'), width: 32, height: 32 });
    expect(prepared).not.toHaveProperty('mask');
    expect((await decode(prepared.image)).data.equals(source.data)).toBe(true);
  });

  it('refuses bad pictures with the very errors of the engine’s edit', async () => {
    const good = await base64(texture(8, 8));
    const cases = [
      { image: 'not base64!' },
      { image: await base64(texture(8, 8), 'gif') },
      { image: good, mask: 'https://example.com/mask.png' },
      { image: good, mask: good.slice(0, 40) },
      { image: good, width: 0 },
    ];
    for (const { width = 16, ...pictures } of cases) {
      const prepared = await rejection(prepareOpenAiEdit({ ...pictures, width, height: 16 }));
      const edited = await rejection(editImageInputs({ prompt: 'x', ...pictures, width, height: 16, n: 1 }));
      expect([prepared.kind, prepared.message]).toEqual([edited.kind, edited.message]);
      expect(prepared.kind).toBe('invalid_request');
    }
  });
});

describe('engines.images.prepareEdit (an image worker)', () => {
  it('answers the same PNGs as Buffers, and the engine’s errors', async () => {
    const engines = startEngines({ text: { workers: 1, queue: 1 }, images: { workers: 1, queue: 2 } });
    try {
      const request = { image: await base64(texture(40, 30)), mask: await base64(raw(40, 30, 3, (x) => (x < 10 ? [255, 255, 255] : [0, 0, 0]))), width: 64, height: 64 };
      const [viaWorker, inThread] = await Promise.all([engines.images.prepareEdit(request), prepareOpenAiEdit(request)]);
      expect(Buffer.isBuffer(viaWorker.image) && Buffer.isBuffer(viaWorker.mask)).toBe(true);
      expect(viaWorker.image.equals(inThread.image)).toBe(true);
      expect(viaWorker.mask!.equals(inThread.mask!)).toBe(true);
      const unmasked = await engines.images.prepareEdit({ image: request.image, width: 64, height: 64 });
      expect(unmasked).not.toHaveProperty('mask');
      const error = await rejection(engines.images.prepareEdit({ image: 'bad base64!', width: 64, height: 64 }));
      expect(error.kind).toBe('invalid_request');
      expect(error.message).toMatch(/^'image' is not valid base64/);
    } finally {
      await engines.close();
    }
  });
});
