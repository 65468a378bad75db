import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/server/domain/errors.ts';
import { decodeImageInput, type DecodedImage } from '../../src/server/domain/engine/images/index.ts';
import { encode, raw, texture } from './pixels.ts';

/** The decoded pixels as RGB(A) bytes, to compare with a raw test image. */
function bytesOf(image: DecodedImage, channels: 3 | 4): Buffer {
  const rgba = Buffer.from(image.pixels.buffer, image.pixels.byteOffset, image.pixels.byteLength);
  if (channels === 4) return rgba;
  const rgb = Buffer.alloc(image.width * image.height * 3);
  for (let p = 0; p < image.width * image.height; p++) rgba.copy(rgb, p * 3, p * 4, p * 4 + 3);
  return rgb;
}

/** The invalid_request error a decode throws (fails the test if it resolves or throws something else). */
async function failure(value: string, field: 'image' | 'mask' = 'image'): Promise<GatewayError> {
  const error = await decodeImageInput(value, field).then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(GatewayError);
  expect((error as GatewayError).kind).toBe('invalid_request');
  expect((error as GatewayError).message).toContain(`'${field}'`);
  return error as GatewayError;
}

describe('decodeImageInput', () => {
  const source = texture(40, 30);

  it('decodes plain base64 PNG pixel for pixel', async () => {
    const image = await decodeImageInput((await encode(source)).toString('base64'), 'image');
    expect(image).toMatchObject({ format: 'png', width: 40, height: 30, hasAlpha: false });
    expect(bytesOf(image, 3).equals(source.data)).toBe(true);
  });

  it('decodes straight to a requested size, and exactly when the picture already has it', async () => {
    const base64 = (await encode(source)).toString('base64');
    const scaled = await decodeImageInput(base64, 'image', { width: 20, height: 60 });
    expect(scaled).toMatchObject({ width: 20, height: 60, hasAlpha: false });
    expect(scaled.pixels.length).toBe(20 * 60);
    const same = await decodeImageInput(base64, 'image', { width: 40, height: 30 });
    expect(bytesOf(same, 3).equals(source.data)).toBe(true);
  });

  it('decodes a mask straight to a smaller size by nearest neighbour: still only black and white', async () => {
    // 1024² of 3-pixel stripes: any averaging filter would make greys at every stripe edge.
    const stripes = raw(1024, 1024, 3, (x) => (Math.floor(x / 3) % 2 === 0 ? [255, 255, 255] : [0, 0, 0]));
    const mask = await decodeImageInput((await encode(stripes)).toString('base64'), 'mask', { width: 200, height: 100, nearest: true });
    expect(mask).toMatchObject({ width: 200, height: 100 });
    const values = new Set(bytesOf(mask, 3));
    expect([...values].sort((a, b) => a - b)).toEqual([0, 255]);
  });

  it('keeps the alpha channel of an RGBA image', async () => {
    const rgba = texture(20, 10, 4);
    const image = await decodeImageInput((await encode(rgba)).toString('base64'), 'mask');
    expect(image.hasAlpha).toBe(true);
    expect(bytesOf(image, 4).equals(rgba.data)).toBe(true);
  });

  it('reads 16-bit and greyscale PNGs as 8-bit RGB(A)', async () => {
    const deep = await sharp({ create: { width: 4, height: 4, channels: 3, background: { r: 200, g: 100, b: 50 } } })
      .toColourspace('rgb16').png().toBuffer();
    expect((await sharp(deep).metadata()).depth).toBe('ushort');
    expect(bytesOf(await decodeImageInput(deep.toString('base64'), 'image'), 3).subarray(0, 3)).toEqual(Buffer.from([200, 100, 50]));
    const grey = await sharp(Buffer.alloc(16, 90), { raw: { width: 4, height: 4, channels: 1 } }).png().toBuffer();
    const fromGrey = await decodeImageInput(grey.toString('base64'), 'image');
    expect(fromGrey.hasAlpha).toBe(false);
    expect(bytesOf(fromGrey, 3).equals(Buffer.alloc(48, 90))).toBe(true);
  });

  it('accepts data: URLs of PNG, JPEG and WebP, and base64 with line breaks or the URL-safe alphabet', async () => {
    const webp = await encode(source, 'webp');
    const fromWebp = await decodeImageInput(`data:image/webp;base64,${webp.toString('base64')}`, 'image');
    expect(fromWebp).toMatchObject({ format: 'webp', width: 40, height: 30 });
    expect(bytesOf(fromWebp, 3).equals(source.data)).toBe(true);

    const jpeg = await encode(source, 'jpeg');
    const fromJpeg = await decodeImageInput(`data:image/jpeg;base64,${jpeg.toString('base64')}`, 'image');
    const expected = await sharp(jpeg).raw().toBuffer();
    expect(fromJpeg.format).toBe('jpeg');
    expect(bytesOf(fromJpeg, 3).equals(expected)).toBe(true);

    const png = await encode(source);
    const wrapped = png.toString('base64').replace(/.{76}/g, '$&\r\n');
    expect((await decodeImageInput(wrapped, 'image')).width).toBe(40);
    expect((await decodeImageInput(png.toString('base64url'), 'image')).width).toBe(40);
    expect((await decodeImageInput(`DATA:image/PNG;base64,${png.toString('base64')}`, 'image')).width).toBe(40);
  });

  it('refuses what is not base64', async () => {
    expect((await failure('this is not base64!')).message).toMatch(/not valid base64/);
    expect((await failure('QUJD=RA==')).message).toMatch(/not valid base64/);
    expect((await failure('QUJDR')).message).toMatch(/not valid base64/);
    expect((await failure('   ')).message).toMatch(/empty/);
    expect((await failure('data:image/png;base64,')).message).toMatch(/empty/);
  });

  it('refuses base64 that is not an image, naming the accepted formats', async () => {
    const error = await failure(Buffer.from('hello, world').toString('base64'));
    expect(error.message).toBe(`'image' is not a PNG, JPEG or WebP image in base64.`);
  });

  it('names an unsupported format such as GIF, SVG or BMP', async () => {
    const gif = await encode(raw(8, 8, 3, () => [255, 0, 0]), 'gif');
    expect((await failure(gif.toString('base64'), 'mask')).message).toBe(`'mask' is a GIF image, not a PNG, JPEG or WebP image in base64.`);
    expect((await failure(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64'))).message).toMatch(/SVG/);
    expect((await failure(Buffer.from('BM\0\0\0\0').toString('base64'))).message).toMatch(/BMP/);
  });

  it('refuses data: URLs of other types or without base64', async () => {
    const png = (await encode(source)).toString('base64');
    expect((await failure(`data:image/gif;base64,${png}`)).message).toMatch(/image\/gif/);
    expect((await failure(`data:text/plain;base64,${png}`)).message).toMatch(/text\/plain/);
    expect((await failure(`data:image/png,${png}`)).message).toMatch(/base64/);
    expect((await failure('https://example.com/cat.png')).message).toMatch(/link/);
  });

  it('refuses damaged and truncated images with 400, never a crash', async () => {
    const png = await encode(texture(64, 64));
    await failure(png.subarray(0, png.length / 2).toString('base64'));
    await failure(png.subarray(0, 20).toString('base64'));
    const jpeg = await encode(texture(64, 64), 'jpeg');
    await failure(jpeg.subarray(0, 40).toString('base64'));
    const webp = await encode(texture(64, 64), 'webp');
    await failure(webp.subarray(0, webp.length / 2).toString('base64'));
  });

  it('refuses images wider or taller than 4096 pixels (D9) and accepts 4096 exactly', async () => {
    const wide = await sharp({ create: { width: 4097, height: 2, channels: 3, background: '#fff' } }).png().toBuffer();
    expect((await failure(wide.toString('base64'))).message).toMatch(/4097×2 pixels; images up to 4096×4096/);
    const tall = await sharp({ create: { width: 1, height: 5000, channels: 3, background: '#fff' } }).png().toBuffer();
    await failure(tall.toString('base64'), 'mask');
    const edge = await sharp({ create: { width: 4096, height: 1, channels: 3, background: '#fff' } }).png().toBuffer();
    expect((await decodeImageInput(edge.toString('base64'), 'image')).width).toBe(4096);
  });
});
