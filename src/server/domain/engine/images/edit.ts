import { rasterBytes } from './canvas.ts';
import { decodeImageInput, type DecodedImage } from './decode.ts';
import { encodeEach } from './encode.ts';
import { inpaint } from './inpaint.ts';
import { checkRequest } from './limits.ts';
import { maskAt } from './mask.ts';
import { hashBytes, hashParts, Rng } from '../../../../lib/random.ts';
import { renderArtwork } from './render.ts';
import { resizePixels } from './resize.ts';
import { themeFor } from './theme.ts';
import { vary } from './variation.ts';

/** What to edit; image and mask come from `decodeImageInput`. */
export interface EditRequest {
  prompt: string;
  image: DecodedImage;
  mask?: DecodedImage | undefined;
  width: number;
  height: number;
  n: number;
}

/**
 * Inpainting (with a mask: only pixels under its white areas change) or variation (without: the whole
 * picture changes but stays recognisable). n lossless PNGs of exactly width×height, deterministic per
 * (prompt, source, mask, size, index).
 *
 * @example
 * const image = await decodeImageInput(body.image, 'image');
 * const mask = body.mask === undefined ? undefined : await decodeImageInput(body.mask, 'mask');
 * const pngs = await editImages({ prompt: body.prompt, image, mask, width: 512, height: 512, n: 2 });
 */
export async function editImages(req: EditRequest): Promise<Buffer[]> {
  const { width, height, n } = req;
  checkRequest(width, height, n);
  const source = await resizePixels(req.image, width, height);
  const white = req.mask === undefined ? undefined : maskAt(req.mask, width, height);
  const theme = themeFor(req.prompt);
  // The pictures depend on the source's pixels and on the mask's, not on how they were encoded.
  const key = `${hashBytes(rasterBytes(source))}/${white === undefined ? 'variation' : hashBytes(white)}`;
  return encodeEach(n, (index) => {
    const rng = new Rng(hashParts('edit', req.prompt, width, height, index, key));
    const pattern = renderArtwork(width, height, theme, rng);
    return white === undefined ? vary(source, pattern, rng.range(60, 300)) : inpaint(source, white, pattern);
  });
}

/** An edit as the request sent it: the source image and the optional mask still encoded (base64 or a `data:` URL). */
export interface EncodedEditRequest extends Omit<EditRequest, 'image' | 'mask'> {
  image: string;
  mask?: string | undefined;
}

/**
 * Decodes the source image and the mask (an invalid_request error naming the field when one is not an
 * accepted image), then edits as `editImages`.
 *
 * @example
 * const pngs = await editImageInputs({ prompt: 'Add a red door', image: body.image, width: 512, height: 512, n: 1 });
 */
export async function editImageInputs(req: EncodedEditRequest): Promise<Buffer[]> {
  checkRequest(req.width, req.height, req.n);
  return editImages({ ...req, ...(await decodeEditInputs(req)) });
}

/**
 * An edit's source image and mask decoded straight to the output size, as every edit reads them (an
 * invalid_request error naming the field when one is not an accepted image).
 *
 * @example
 * const { image, mask } = await decodeEditInputs({ image: body.image, mask: body.mask, width: 512, height: 512 });
 */
export async function decodeEditInputs(
  req: Pick<EncodedEditRequest, 'image' | 'mask' | 'width' | 'height'>,
): Promise<{ image: DecodedImage; mask: DecodedImage | undefined }> {
  // Both are only ever used at the output size, so they are decoded to it: a 4096² upload then never holds
  // its 64 MB of pixels. The mask is scaled by nearest neighbour, which keeps its edges binary.
  const size = { width: req.width, height: req.height };
  const image = await decodeImageInput(req.image, 'image', size);
  const mask = req.mask === undefined ? undefined : await decodeImageInput(req.mask, 'mask', { ...size, nearest: true });
  return { image, mask };
}
