/**
 * Image requests as the domain sees them: the size rules of the image model, the daily quota, and the image
 * engine, in one place for generation and edits. Images are counted before any picture is decoded or painted
 * (so a request over the quota costs no work) and given back when decoding or painting fails (so a failed
 * request costs no quota).
 */
import type { EditPreparation, EncodedEditRequest, GenerationRequest, PreparedEdit } from './engine/images/index.ts';
import { generationSizes } from './engine/images/limits.ts';
import type { Abandonment } from './abandonment.ts';
import { invalidRequest, type QuotaState } from './errors.ts';
import type { ImageQuota } from './quota.ts';
import type { ApiKeyRecord } from './store/index.ts';

export interface GenerationOrder {
  /** The image model's id. */
  model: string;
  prompt: string;
  /** `<width>x<height>`, one of the image model's sizes (decision D12). */
  size: string;
  n: number;
}

export interface EditOrder {
  /** The image model's id. */
  model: string;
  prompt: string;
  /** The source image and the optional mask as sent: base64 or a `data:` URL. */
  image: string;
  mask?: string | undefined;
  size: string;
  n: number;
}

export interface ImageBatch {
  pngs: Buffer[];
  /** The key's quota after this request. */
  quota: QuotaState;
}

export interface ImageService {
  /** `abandoned` aborts the work of a client that went away (an upstream's request; its images are given back). */
  generate(key: ApiKeyRecord, order: GenerationOrder, abandoned?: Abandonment): Promise<ImageBatch>;
  /** Inpainting with a mask (only its white pixels change), a variation without. */
  edit(key: ApiKeyRecord, order: EditOrder, abandoned?: Abandonment): Promise<ImageBatch>;
}

/**
 * A model's pictures made elsewhere: its upstream (upstream/image-painter.ts), or its upstreams through their
 * router (routing/). Its sizes are its own.
 */
export interface ImagePainter {
  generate(order: GenerationOrder, abandoned?: Abandonment): Promise<Buffer[]>;
  edit(order: EditOrder, abandoned?: Abandonment): Promise<Buffer[]>;
}

/**
 * The painter behind the service: the image engine in worker threads (workers/engines.ts), or a stand-in
 * with the same shape. Edits get their pictures still encoded: decoding is the engine's work too.
 */
export interface ImageEngine {
  generate(request: GenerationRequest): Promise<Buffer[]>;
  edit(request: EncodedEditRequest): Promise<Buffer[]>;
  /** An edit's pictures made ready for a model upstream at OpenAI (its image at the output size, its mask in OpenAI's convention). */
  prepareEdit(request: EditPreparation): Promise<PreparedEdit>;
}

function dimensions(size: string): { width: number; height: number } {
  const [width, height] = size.split('x').map(Number) as [number, number];
  return { width, height };
}

/**
 * Images of the built-in engine, or of the painter of a model that has one (`painters`, by model id); the
 * quota is taken before either paints.
 *
 * @example
 * const images = createImageService(engines.images, quota);
 * const { pngs, quota: left } = await images.generate(key, { prompt: 'A lighthouse', size: '512x512', n: 2 });
 */
export function createImageService(engine: ImageEngine, quota: ImageQuota, painters: ReadonlyMap<string, ImagePainter> = new Map()): ImageService {
  async function produce(key: ApiKeyRecord, n: number, paint: () => Promise<Buffer[]>): Promise<ImageBatch> {
    const grant = await quota.reserve(key, n);
    try {
      return { pngs: await paint(), quota: grant.state };
    } catch (error) {
      // The caller learns why the pictures failed, even when giving the grant back fails too (the database
      // was lost in between): that grant is then spent.
      await grant.refund().catch(() => undefined);
      throw error;
    }
  }

  return {
    generate(key, order, abandoned) {
      const painter = painters.get(order.model);
      if (painter) return produce(key, order.n, () => painter.generate(order, abandoned));
      if (!generationSizes.includes(order.size)) {
        throw invalidRequest(`Size '${order.size}' is not supported; ${order.model} makes ${generationSizes.join(', ')}.`);
      }
      const { width, height } = dimensions(order.size);
      return produce(key, order.n, () => engine.generate({ prompt: order.prompt, width, height, n: order.n }));
    },
    async edit(key, order, abandoned) {
      const painter = painters.get(order.model);
      if (painter) return produce(key, order.n, () => painter.edit(order, abandoned));
      const { width, height } = dimensions(order.size);
      return produce(key, order.n, () => engine.edit({ prompt: order.prompt, image: order.image, mask: order.mask, width, height, n: order.n }));
    },
  };
}
