// An image model with an openai-images upstream (decision D31), over real HTTP: the gateway's image
// generation and edit answered by a fake OpenAI images server (PNGs of the asked size, made with sharp), what
// arrives there (JSON for a generation, a multipart form with the image and the mask for an edit, the
// operator's key as a Bearer), and the upstream's failures: 502 for its 5xx and when it cannot be reached, 503
// for its 429, each costing no image of the caller's daily quota (reserved before the upstream is called,
// given back when it fails), and a client that goes away aborting the upstream request.
import type { ServerResponse } from 'node:http';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { builtInEntries } from '../../src/server/catalogue/catalogue.ts';
import type { CatalogueEntry } from '../../src/server/catalogue/catalogue-file.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { call, type Answer } from '../server/http.ts';
import { deadOrigin, errorStatus, neverAnswer, okJson, openaiError, startFaultyUpstream, type Behaviour, type FaultyUpstream, type ReceivedRequest } from './faulty-upstream.ts';

const SECRET = 'sk-operator-images-9d2b61';
/** A key whose tier may use the image model, with a daily quota of several images. */
const KEY = 'sk-demo-economy';
const IMAGE_MODEL = 'image-gen';
/** A second image model of the test's catalogue, whose upstream is a port nothing listens on. */
const DEAD_MODEL = 'image-gen-unreachable';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

/** The built-in listing with `image-gen` at `origin` (and, with `dead`, a second image model at a dead port). */
function imageCatalogue(origin: string, dead?: string): CatalogueEntry[] {
  const upstream = (at: string) => ({ protocol: 'openai-images' as const, base_url: `${at}/v1`, api_key_env: 'UPSTREAM_KEY', model: 'gpt-image-1', timeouts: { first_byte_ms: 20_000, idle_ms: 20_000 } });
  const entries = builtInEntries().map((model) => (model.id === IMAGE_MODEL ? { ...model, upstream: upstream(origin) } : model));
  const image = entries.find((model) => model.id === IMAGE_MODEL)!;
  if (dead) entries.push({ ...image, id: DEAD_MODEL, endpoints: ['/v1/generation/image'], upstream: upstream(dead) });
  return entries;
}

async function setUp(dead = false): Promise<{ upstream: FaultyUpstream; gateway: TestServer }> {
  const upstream = await startFaultyUpstream();
  cleanup.push(() => upstream.close());
  const gateway = await startServer({ catalogue: imageCatalogue(upstream.origin, dead ? await deadOrigin() : undefined), environment: { UPSTREAM_KEY: SECRET } });
  cleanup.push(() => gateway.close());
  upstream.answer = paints();
  return { upstream, gateway };
}

const generate = (gateway: TestServer, body: Record<string, unknown>, model = IMAGE_MODEL) =>
  call(gateway.baseUrl, 'POST', `/v1/generation/image?model=${model}`, { key: KEY, body: { prompt: 'A lighthouse at dusk', size: '256x256', n: 1, ...body } });

const edit = (gateway: TestServer, body: Record<string, unknown>) => call(gateway.baseUrl, 'POST', '/v1/generation/image/edit', { key: KEY, body: { prompt: 'Add a red kite', size: '512x512', ...body } });

/** What a successful image answer says is left of the day's quota. */
function remaining(answer: Answer): number {
  expect(answer.status, answer.text).toBe(200);
  return Number(answer.headers.get('x-ratelimit-remaining-images'));
}

const COLOURS = ['#e63946', '#2a9d8f', '#f4a261', '#264653'];

/** The PNG the fake server paints as picture `i` of `size`. */
function painted(size: string, i: number): Promise<Buffer> {
  const [width, height] = size.split('x').map(Number) as [number, number];
  return sharp({ create: { width, height, channels: 3, background: COLOURS[i % COLOURS.length]! } }).png().toBuffer();
}

/** The multipart form a request carried, read by the platform's own parser. */
function formOf(request: ReceivedRequest): Promise<FormData> {
  return new Request('http://upstream.test/', { method: 'POST', headers: { 'content-type': String(request.headers['content-type']) }, body: new Uint8Array(request.body) }).formData();
}

/** OpenAI's images API as a fake: `n` pictures of `size`, as OpenAI answers them (`data[].b64_json`); `count` may say fewer. */
function paints(count?: number): Behaviour {
  return async (res: ServerResponse, request: ReceivedRequest) => {
    const asked = request.url === '/v1/images/edits' ? await formOf(request).then((form) => ({ n: Number(form.get('n')), size: String(form.get('size')) })) : (request.json as { n: number; size: string });
    const pictures = await Promise.all(Array.from({ length: count ?? asked.n }, (_, i) => painted(asked.size, i)));
    okJson({ created: 1_713_833_628, data: pictures.map((png) => ({ b64_json: png.toString('base64') })) })(res, request);
  };
}

async function png(width: number, height: number, background: string): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background } }).png().toBuffer();
}

describe('an image model with an openai-images upstream', () => {
  it("generates: the gateway's answer is the upstream's PNGs of the asked size, sent to it as OpenAI's JSON with the operator's key", async () => {
    const { upstream, gateway } = await setUp();
    const answer = await generate(gateway, { n: 2 });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data).toHaveLength(2);
    for (const [i, image] of answer.body.data.entries()) {
      const bytes = Buffer.from(image.b64_json, 'base64');
      expect(bytes.equals(await painted('256x256', i))).toBe(true);
      expect(await sharp(bytes).metadata()).toMatchObject({ format: 'png', width: 256, height: 256 });
    }
    expect(remaining(answer)).toBe(Number(answer.headers.get('x-ratelimit-limit-images')) - 2);

    expect(upstream.received).toHaveLength(1);
    const [request] = upstream.received;
    expect([request!.method, request!.url]).toEqual(['POST', '/v1/images/generations']);
    expect(request!.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.json).toEqual({ model: 'gpt-image-1', prompt: 'A lighthouse at dusk', n: 2, size: '256x256' });
    expect(JSON.stringify(request!.headers)).not.toContain(KEY);
  });

  it('edits: the request arrives as a multipart form with the image and the mask as PNGs of the output size', async () => {
    const { upstream, gateway } = await setUp();
    const image = await png(300, 200, '#264653');
    const mask = await png(300, 200, '#ffffff');
    const answer = await edit(gateway, { image: image.toString('base64'), mask: `data:image/png;base64,${mask.toString('base64')}` });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data).toHaveLength(1);
    expect(Buffer.from(answer.body.data[0].b64_json, 'base64').equals(await painted('512x512', 0))).toBe(true);

    const [request] = upstream.received;
    expect([request!.method, request!.url]).toEqual(['POST', '/v1/images/edits']);
    expect(request!.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(request!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const form = await formOf(request!);
    expect([form.get('model'), form.get('prompt'), form.get('n'), form.get('size')]).toEqual(['gpt-image-1', 'Add a red kite', '1', '512x512']);
    for (const name of ['image', 'mask']) {
      const part = form.get(name);
      expect(part, name).toBeInstanceOf(File);
      expect((part as File).type).toBe('image/png');
      expect(await sharp(Buffer.from(await (part as File).arrayBuffer())).metadata(), name).toMatchObject({ format: 'png', width: 512, height: 512 });
    }
    // OpenAI's mask is transparent where the gateway's is white: all of it here.
    const { data } = await sharp(Buffer.from(await (form.get('mask') as File).arrayBuffer())).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect(data.filter((_, i) => i % 4 === 3).every((alpha) => alpha === 0)).toBe(true);
  });

  it('an upstream 500 → 502 naming the model and the upstream, never the key, and the images reserved are given back', async () => {
    const { upstream, gateway } = await setUp();
    const before = remaining(await generate(gateway, { n: 1 }));
    upstream.answer = errorStatus(500, openaiError(`The server had an error; key ${SECRET}`, 'server_error'));
    const failed = await generate(gateway, { n: 2 });
    expect(failed.status).toBe(502);
    expect(failed.body.error).toContain(`'${IMAGE_MODEL}'`);
    expect(failed.body.error).toContain(upstream.origin);
    expect(failed.text).not.toContain(SECRET);
    const editFailed = await edit(gateway, { image: (await png(64, 64, '#8ab17d')).toString('base64') });
    expect(editFailed.status).toBe(502);
    upstream.answer = paints();
    expect(remaining(await generate(gateway, { n: 1 })), 'the two failures cost nothing').toBe(before - 1);
  });

  it('an upstream that cannot be reached → 502, and the images reserved are given back', async () => {
    const { gateway } = await setUp(true);
    const before = remaining(await generate(gateway, { n: 1 }));
    const failed = await generate(gateway, { n: 2 }, DEAD_MODEL);
    expect(failed.status, failed.text).toBe(502);
    expect(failed.body.error).toMatch(new RegExp(`Model '${DEAD_MODEL}': .*cannot be reached`));
    expect(remaining(await generate(gateway, { n: 1 })), 'the failure cost nothing').toBe(before - 1);
  });

  it("an upstream 429 → 503 with its Retry-After (not the caller's quota), and the images reserved are given back", async () => {
    const { upstream, gateway } = await setUp();
    const before = remaining(await generate(gateway, { n: 1 }));
    upstream.answer = errorStatus(429, openaiError('Rate limit reached for images per minute.', 'requests'), { 'retry-after': '12' });
    const busy = await generate(gateway, { n: 1 });
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('12');
    expect(busy.body.error).toMatch(/not your key's quota/);
    expect(busy.headers.get('x-should-retry')).toBeNull();
    upstream.answer = paints();
    expect(remaining(await generate(gateway, { n: 1 }))).toBe(before - 1);
  });

  it('fewer pictures than asked → 502, and the images reserved are given back', async () => {
    const { upstream, gateway } = await setUp();
    const before = remaining(await generate(gateway, { n: 1 }));
    upstream.answer = paints(1);
    const short = await generate(gateway, { n: 3 });
    expect(short.status).toBe(502);
    expect(short.body.error).toMatch(/1 of the 3 images/);
    upstream.answer = paints();
    expect(remaining(await generate(gateway, { n: 1 }))).toBe(before - 1);
  });

  it('a client that goes away aborts the upstream request', async () => {
    const { upstream, gateway } = await setUp();
    upstream.answer = neverAnswer();
    const leaving = new AbortController();
    const asking = fetch(`${gateway.baseUrl}/v1/generation/image?model=${IMAGE_MODEL}`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'A lighthouse', size: '256x256' }),
      signal: leaving.signal,
    });
    const request = await upstream.request(0);
    leaving.abort();
    await expect(asking).rejects.toThrow();
    await request.abandoned;
    expect(request.wasAbandoned).toBe(true);
    // Node's fetch leaves a spare connection to the gateway after an abort; the gateway's close would wait for it.
    gateway.app.server.closeAllConnections();
  });
});

describe('an image model with several upstreams (decision D40)', () => {
  /** `image-gen` routed over an upstream that is down (`gone`), then the fake painter (`painter`). */
  async function routedSetUp(): Promise<{ upstream: FaultyUpstream; gateway: TestServer }> {
    const upstream = await startFaultyUpstream();
    cleanup.push(() => upstream.close());
    upstream.answer = paints();
    const at = (name: string, origin: string) => ({ name, protocol: 'openai-images' as const, base_url: `${origin}/v1`, api_key_env: 'UPSTREAM_KEY', model: 'gpt-image-1' });
    const dead = await deadOrigin();
    const catalogue = builtInEntries().map((model) => (model.id === IMAGE_MODEL ? { ...model, upstreams: [at('gone', dead), at('painter', upstream.origin)] } : model));
    const gateway = await startServer({ catalogue, environment: { UPSTREAM_KEY: SECRET } });
    cleanup.push(() => gateway.close());
    return { upstream, gateway };
  }

  it('one upstream down: the other paints, the answer says which, and the images are counted once', async () => {
    const { gateway } = await routedSetUp();
    const first = await generate(gateway, { n: 2 });
    const left = remaining(first);
    expect([first.headers.get('x-gateway-upstream'), first.headers.get('x-gateway-attempts')]).toEqual(['painter', '2']);
    expect(first.body.data).toHaveLength(2);
    expect(remaining(await generate(gateway, { n: 1 }))).toBe(left - 1);
  });

  it('every upstream failing: 502 naming each attempt, and the images reserved once are given back once', async () => {
    const { upstream, gateway } = await routedSetUp();
    const before = remaining(await generate(gateway, { n: 1 }));
    upstream.answer = errorStatus(500, openaiError('The painter broke', 'server_error'));
    const failed = await generate(gateway, { n: 2 });
    expect(failed.status).toBe(502);
    expect(failed.body.error).toMatch(/no upstream could answer \(2 attempts\): upstream 'gone' \(http:\/\/127\.0\.0\.1:\d+\): cannot be reached \(ECONNREFUSED\); upstream 'painter' \(http:\/\/127\.0\.0\.1:\d+\): answered 500: The painter broke/);
    expect(failed.body.error).not.toContain(SECRET);
    expect(failed.headers.get('x-gateway-attempts')).toBe('2');
    upstream.answer = paints();
    expect(remaining(await generate(gateway, { n: 1 }))).toBe(before - 1);
  });
});
