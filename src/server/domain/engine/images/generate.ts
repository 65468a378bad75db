import { encodeEach } from './encode.ts';
import { checkRequest } from './limits.ts';
import { hashParts, Rng } from '../../../../lib/random.ts';
import { renderArtwork } from './render.ts';
import { themeFor } from './theme.ts';

/** What to generate. */
export interface GenerationRequest {
  prompt: string;
  width: number;
  height: number;
  n: number;
}

/**
 * n PNGs of exactly width×height, deterministic per (prompt, width, height, index): the same request
 * always answers the same bytes, and each index is a different picture.
 *
 * @example
 * const [png] = await generateImages({ prompt: 'A lighthouse at dawn', width: 512, height: 512, n: 1 });
 */
export async function generateImages(req: GenerationRequest): Promise<Buffer[]> {
  checkRequest(req.width, req.height, req.n);
  const theme = themeFor(req.prompt);
  return encodeEach(req.n, (index) =>
    renderArtwork(req.width, req.height, theme, new Rng(hashParts('generate', req.prompt, req.width, req.height, index))));
}
