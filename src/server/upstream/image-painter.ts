/**
 * An image model whose pictures come from an OpenAI-images upstream: a generation sent as it is asked for
 * (the upstream's sizes are its own: one it does not make is its 400, passed on), an edit with its source and
 * mask first made ready in an image worker (OpenAI's mask is transparent where the gateway's is white, and the
 * same size as the image). Fewer pictures than asked is a failure: the contract promises `n`, and the images
 * reserved are given back.
 */
import type { UpstreamEntry } from '../catalogue/catalogue-file.ts';
import type { ImageEngine, ImagePainter } from '../domain/images.ts';
import type { UpstreamConnection } from './connections.ts';
import { asGatewayError, type UpstreamIdentity } from './gateway-errors.ts';
import { UpstreamError } from './errors.ts';
import { editForm, generationRequest, imagesFrom } from './protocols/openai-images.ts';

/**
 * @example
 *   const painter = upstreamPainter('gpt-image', entry, upstreams.connect(entry), engines.images);
 */
export function upstreamPainter(model: string, entry: UpstreamEntry, { client, key }: UpstreamConnection, engine: ImageEngine): ImagePainter {
  const identity: UpstreamIdentity = { model, origin: client.origin, key };

  function all(json: unknown, n: number): Buffer[] {
    const pngs = imagesFrom(json, n);
    if (pngs.length < n) throw new UpstreamError('malformed', `The upstream answered ${pngs.length} of the ${n} images asked for.`);
    return pngs;
  }

  return {
    async generate(order, abandoned) {
      try {
        const { path, body } = generationRequest(order, entry.model);
        return all(await client.json(path, body, abandoned?.signal), order.n);
      } catch (error) {
        throw asGatewayError(error, identity);
      }
    },
    async edit(order, abandoned) {
      const [width, height] = order.size.split('x').map(Number) as [number, number];
      // Bad pictures are the client's 400, found before anything is sent.
      const prepared = await engine.prepareEdit({ image: order.image, mask: order.mask, width, height });
      try {
        const { path, form } = editForm(prepared, order, entry.model);
        return all(await client.form(path, form, abandoned?.signal), order.n);
      } catch (error) {
        throw asGatewayError(error, identity);
      }
    },
  };
}
