/**
 * Image generation under load: latency and images per second for one size and `n`, each request with a key
 * that still has quota for it, so that every answer is a real 200 with `n` images.
 */
import { dailyImageQuota } from '../../src/contract/index.ts';
import { runLoad, type LoadSpec } from './load.ts';
import type { BenchSettings } from './settings.ts';

/** Images a day each key the benchmark's servers issue may make (they are ultimate-tier). */
export const imagesPerKey = dailyImageQuota('ultimate');

export type ImageCase = BenchSettings['images']['cases'][number];

/**
 * Hands out the keys in turn, so that requests at once spend different keys, as many clients' would, and no
 * key more than `perKey` images; with none left it counts the excess (answered 429, reported).
 *
 * @example
 *   const keys = keyRotation(['sk-a', 'sk-b'], 50);
 *   keys.next(4); // 'sk-a', and 4 of its 50 images are spoken for
 */
export function keyRotation(keys: readonly string[], perKey = Number.POSITIVE_INFINITY): { next(images?: number): string; readonly handed: number; readonly excess: number } {
  if (keys.length === 0) throw new Error('the image load needs keys; the server issued none');
  const used = keys.map(() => 0);
  let at = 0;
  let handed = 0;
  let excess = 0;
  return {
    next(images = 1) {
      handed++;
      for (let tried = 0; tried < keys.length; tried++, at = (at + 1) % keys.length) {
        if (used[at]! + images <= perKey) {
          used[at]! += images;
          const key = keys[at]!;
          at = (at + 1) % keys.length;
          return key;
        }
      }
      excess++;
      return keys[at]!;
    },
    get handed() {
      return handed;
    },
    get excess() {
      return excess;
    },
  };
}

/** Image requests of one size and `n`, a different prompt each time (so that every image is drawn), each with the next key. */
export function imageRequest(imageCase: ImageCase, next: (images: number) => string, expectStatus?: number): LoadSpec {
  return {
    method: 'POST',
    path: '/v1/generation/image?model=image-gen',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'A lighthouse on a cliff at dusk, oil painting, [<id>]', size: imageCase.size, n: imageCase.n }),
    idReplacement: true,
    setupRequest: (request) => ({ ...request, headers: { ...request.headers, 'x-api-key': next(imageCase.n) } }),
    ...(expectStatus !== undefined && { expectStatus }),
  };
}

export type ImageResult = Awaited<ReturnType<typeof imageLoad>>;

export async function imageLoad(baseUrl: string, next: (images: number) => string, imageCase: ImageCase, load: { connections: number; durationS?: number; amount?: number }) {
  const result = await runLoad(baseUrl, imageRequest(imageCase, next), load);
  const { requests, p50Ms, p99Ms, errors, non2xx, durationS } = result;
  return { ...imageCase, requests, p50Ms, p99Ms, imagesPerSecond: durationS > 0 ? ((requests - non2xx) * imageCase.n) / durationS : 0, errors, non2xx };
}
