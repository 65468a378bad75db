/**
 * Image edits. With a mask (inpainting), only pixels under the mask's white areas change and every other
 * pixel is the (scaled) source's, exactly. Without a mask (variation), the whole picture is blended with a
 * painting of the prompt. Results are deterministic per (prompt, source, mask, size, index).
 */
import type { Raster } from './canvas.ts';
import { pixelsAt, type DecodedImage } from './decode.ts';
import { encodePng } from './encode.ts';
import { checkRequest } from './limits.ts';
import { seeded } from './random.ts';
import { renderArtwork } from './render.ts';
import { themeFor } from './theme.ts';

export interface EditRequest {
  prompt: string;
  image: DecodedImage;
  mask?: DecodedImage;
  width: number;
  height: number;
  n: number;
}

/** How much of the painting replaces a masked pixel, and how much of it a variation takes (of 256). */
const INPAINT_WEIGHT = 220;
const VARIATION_WEIGHT = 110;

/**
 * n PNGs of exactly width×height.
 *
 * @example
 * const [png] = await editImages({ prompt: 'Add a boat', image, mask, width: 512, height: 512, n: 1 });
 */
export async function editImages(req: EditRequest): Promise<Buffer[]> {
  checkRequest(req.width, req.height, req.n);
  const { width, height } = req;
  const source = await pixelsAt(req.image, width, height, { alpha: false, kernel: 'lanczos3' });
  const selected = req.mask ? maskBits(await pixelsAt(req.mask, width, height, { alpha: true, kernel: 'nearest' })) : undefined;
  const theme = themeFor(req.prompt);
  const results: Promise<Buffer>[] = [];
  for (let index = 0; index < req.n; index++) {
    const rng = seeded(req.mask ? 'inpaint' : 'variation', req.prompt, req.image.digest, req.mask?.digest ?? '', width, height, index);
    const painting = renderArtwork(width, height, theme, rng);
    results.push(encodePng(selected ? inpaint(source, painting, selected) : vary(source, painting)));
  }
  return Promise.all(results);
}

/** A mask pixel selects its position when it is white: luminance ≥ 128 and alpha ≥ 128. */
function maskBits(rgba: Buffer): Uint8Array {
  const bits = new Uint8Array(rgba.length / 4);
  for (let p = 0, i = 0; p < bits.length; p++, i += 4) {
    const luminance = (rgba[i]! * 299 + rgba[i + 1]! * 587 + rgba[i + 2]! * 114) / 1000;
    bits[p] = luminance >= 128 && rgba[i + 3]! >= 128 ? 1 : 0;
  }
  return bits;
}

function inpaint(source: Buffer, painting: Raster, selected: Uint8Array): Raster {
  const out = Buffer.from(source);
  const paint = painting.data;
  for (let p = 0, i = 0; p < selected.length; p++, i += 3) {
    if (!selected[p]) continue;
    let same = true;
    for (let c = 0; c < 3; c++) {
      const value = (source[i + c]! * (256 - INPAINT_WEIGHT) + paint[i + c]! * INPAINT_WEIGHT) >> 8;
      out[i + c] = value;
      if (value !== source[i + c]) same = false;
    }
    // A selected pixel must visibly change, even where the painting happens to match the source.
    if (same) out[i] = source[i]! ^ 0x40;
  }
  return { width: painting.width, height: painting.height, data: out };
}

function vary(source: Buffer, painting: Raster): Raster {
  const out = Buffer.allocUnsafe(source.length);
  const paint = painting.data;
  for (let i = 0; i < source.length; i++) out[i] = (source[i]! * (256 - VARIATION_WEIGHT) + paint[i]! * VARIATION_WEIGHT) >> 8;
  return { width: painting.width, height: painting.height, data: out };
}
