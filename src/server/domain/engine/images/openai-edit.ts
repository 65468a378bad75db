/**
 * An edit prepared for OpenAI's image API (`POST /images/edits`), whose pictures and mask convention differ
 * from the gateway's: the source goes as a PNG already at the output size, and the mask as a PNG of the same
 * size whose fully TRANSPARENT pixels mark where the picture changes (the gateway's mask marks them WHITE).
 * Decoding and scaling are those of the engine's own edit, so an upstream edits the picture the reference
 * would have edited, and bad input is refused with the same invalid_request errors.
 */
import { createRaster } from './canvas.ts';
import { decodeEditInputs, type EncodedEditRequest } from './edit.ts';
import { encodePng } from './encode.ts';
import { checkSize } from './limits.ts';
import { maskAt } from './mask.ts';
import { resizePixels } from './resize.ts';

/** The edit's pictures as the request sent them (base64 or a `data:` URL), and the output size. */
export type EditPreparation = Pick<EncodedEditRequest, 'image' | 'mask' | 'width' | 'height'>;

export interface PreparedEdit {
  /** The source scaled to width×height, as a PNG (RGBA when the source has alpha, RGB otherwise). */
  image: Buffer;
  /** An RGBA PNG of width×height: alpha 0 where the gateway's mask is white, 255 elsewhere. */
  mask?: Buffer;
}

/** Where the picture changes: transparent, and white so that the file still reads as the gateway's mask. */
const CHANGE = 0x00ffffff;
/** Where it is kept: opaque black. */
const KEEP = 0xff000000;

/**
 * @example
 * const { image, mask } = await prepareOpenAiEdit({ image: body.image, mask: body.mask, width: 1024, height: 1024 });
 */
export async function prepareOpenAiEdit(req: EditPreparation): Promise<PreparedEdit> {
  const { width, height } = req;
  checkSize(width, height);
  const decoded = await decodeEditInputs(req);
  const source = await resizePixels(decoded.image, width, height);
  if (decoded.mask === undefined) return { image: await encodePng(source) };
  const white = maskAt(decoded.mask, width, height);
  const mask = createRaster(width, height);
  for (let p = 0; p < white.length; p++) mask.pixels[p] = white[p] === 1 ? CHANGE : KEEP;
  const [image, maskPng] = await Promise.all([encodePng(source), encodePng({ ...mask, hasAlpha: true })]);
  return { image, mask: maskPng };
}
