/**
 * Image generation under load: latency (median, p99) and images per second for one size and `n`. Each
 * request carries a key that still has quota for it, so every answer is a real 200 with `n` images.
 */
import { dailyImageQuota } from '../../src/contract/index.ts';
import { runLoad, type LoadResult, type LoadSpec } from './load.ts';

export interface ImageCase {
  size: '512x512' | '1024x1024';
  n: number;
}

export interface ImageResult extends ImageCase {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  imagesPerSecond: number;
  errors: number;
  non2xx: number;
}

/**
 * Hands out keys so that no request goes over a key's daily quota (the keys are ultimate-tier).
 *
 * @example
 *   const next = keyPool(['sk-a', 'sk-b']);
 *   next(4) // 'sk-a', and 4 of its 50 images are now spoken for
 */
export function keyPool(keys: readonly string[]): (n: number) => string {
  const perKey = dailyImageQuota('ultimate');
  let index = 0;
  let used = 0;
  return (n) => {
    if (used + n > perKey) {
      index++;
      used = 0;
    }
    const key = keys[index];
    if (!key) throw new Error(`the benchmark ran out of image keys (${keys.length} × ${perKey} images); give the server more`);
    used += n;
    return key;
  };
}

/**
 * Generates images of one size and `n` with `connections` requests at a time.
 *
 * @example
 *   const r = await imageLoad(ref.baseUrl, keyPool(keys), { size: '1024x1024', n: 1 }, { connections: 1, durationS: 5 });
 */
export async function imageLoad(
  baseUrl: string,
  nextKey: (n: number) => string,
  imageCase: ImageCase,
  load: { connections: number; durationS?: number; amount?: number },
): Promise<ImageResult> {
  const spec: LoadSpec = {
    method: 'POST',
    path: '/v1/generation/image?model=image-gen',
    headers: { 'content-type': 'application/json' },
    // A different prompt each time (`[<id>]`), so that every image is drawn, not remembered.
    body: JSON.stringify({ prompt: 'A lighthouse on a cliff at dusk, oil painting, [<id>]', size: imageCase.size, n: imageCase.n }),
    idReplacement: true,
    setupRequest: (request) => ({ ...request, headers: { ...request.headers, 'x-api-key': nextKey(imageCase.n) } }),
  };
  const result: LoadResult = await runLoad(baseUrl, spec, load);
  const succeeded = result.requests - result.non2xx;
  return {
    ...imageCase,
    requests: result.requests,
    p50Ms: result.p50Ms,
    p99Ms: result.p99Ms,
    imagesPerSecond: result.durationS > 0 ? (succeeded * imageCase.n) / result.durationS : 0,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}
