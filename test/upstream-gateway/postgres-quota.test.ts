/**
 * Three gateway instances in upstream mode on one PostgreSQL database, as behind a load balancer: image-gen's
 * pictures come from an OpenAI images upstream (here a small fake of `POST /v1/images/generations`, answering
 * PNGs of one colour made with sharp at the size asked), and the daily image quota, reserved in the shared
 * database before the upstream is called (decision D31), holds across all of them together. The upstream is
 * asked for exactly the images granted, and never for a refused request.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dailyImageQuota } from '../../src/contract/index.ts';
import { builtInEntries } from '../../src/server/catalogue/catalogue.ts';
import type { CatalogueEntry } from '../../src/server/catalogue/catalogue-file.ts';
import { createDatabase, startPostgres, type RunningPostgres } from '../helpers/postgres.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { call } from '../server/http.ts';

const ADMIN_TOKEN = 'upstream-instances-admin-token';
/** The operator's key at the images upstream. */
const IMAGES_KEY = 'sk-upstream-images-test';
/** The one colour of the fake upstream's pictures: what tells them from the built-in engine's. */
const COLOUR = { r: 12, g: 200, b: 90 };
const SIZE = '1024x1024';

interface GenerationCall {
  authorization: string | undefined;
  body: { model?: unknown; prompt?: unknown; n?: unknown; size?: unknown };
}

interface FakeImages {
  /** OpenAI's base URL form: `http://127.0.0.1:port/v1`. */
  baseUrl: string;
  /** Every generation asked for, in order. */
  calls: GenerationCall[];
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** OpenAI's image generations as its reference documents them: `{created, data: [{b64_json}]}`, n pictures of `size`. */
async function startFakeImages(): Promise<FakeImages> {
  const calls: GenerationCall[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      if (req.method !== 'POST' || req.url !== '/v1/images/generations') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `No route ${req.method} ${req.url}`, type: 'invalid_request_error' } }));
        return;
      }
      const body = JSON.parse(await readBody(req)) as GenerationCall['body'];
      calls.push({ authorization: req.headers.authorization, body });
      const [width, height] = String(body.size).split('x').map(Number) as [number, number];
      const png = await sharp({ create: { width, height, channels: 3, background: COLOUR } }).png().toBuffer();
      const data = Array.from({ length: Number(body.n ?? 1) }, () => ({ b64_json: png.toString('base64') }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ created: Math.floor(Date.now() / 1000), data }));
    })().catch((error: Error) => res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: error.message } })));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    calls,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let database: RunningPostgres;
let url: string;
let upstream: FakeImages;
let instances: TestServer[] = [];

/** The built-in listing with image-gen on the fake upstream (gpt-image-1 there). */
function catalogue(): CatalogueEntry[] {
  return builtInEntries().map((model) =>
    model.id === 'image-gen' ? { ...model, upstream: { protocol: 'openai-images', base_url: upstream.baseUrl, api_key_env: 'IMAGES_KEY', model: 'gpt-image-1' } } : model,
  );
}

/** An instance of the gateway in upstream mode on the shared database, with small worker pools (three run at once). */
const instance = () =>
  startServer({
    store: url,
    adminToken: ADMIN_TOKEN,
    catalogue: catalogue(),
    environment: { IMAGES_KEY },
    workers: { text: { workers: 1, queue: 64 }, images: { workers: 1, queue: 64 } },
  });

beforeAll(async () => {
  database = await startPostgres();
  url = await createDatabase(database, 'upstream_instances');
  upstream = await startFakeImages();
  instances = await Promise.all([instance(), instance(), instance()]);
}, 60_000);
afterAll(async () => {
  await Promise.all(instances.map((i) => i.close()));
  await upstream?.close();
  await database?.stop();
});

/** A new key of `tier`, made through instance `i`'s admin API. */
async function newKey(i: number, tier: 'starter' | 'economy'): Promise<string> {
  const made = await call(instances[i]!.baseUrl, 'POST', '/dashboard/api/keys', { headers: { 'x-admin-token': ADMIN_TOKEN }, body: { name: `Team on instance ${i}`, tier } });
  expect(made.status).toBe(201);
  return (made.body as { key: string }).key;
}
const image = (i: number, key: string, n = 1) =>
  call<{ data: Array<{ b64_json: string }> }>(instances[i]!.baseUrl, 'POST', '/v1/generation/image?model=image-gen', { key, body: { prompt: 'A lighthouse at dusk', size: SIZE, n } });

/** Images the upstream was asked for since `from` calls. */
const askedSince = (from: number) => upstream.calls.slice(from).reduce((sum, c) => sum + Number(c.body.n), 0);

describe('three instances in upstream mode on one database', () => {
  it("grant exactly the tier's daily quota to concurrent requests spread over them, the upstream asked for those only", async () => {
    const key = await newKey(0, 'economy');
    const quota = dailyImageQuota('economy');
    const before = upstream.calls.length;
    const answers = await Promise.all(Array.from({ length: quota * 3 }, (_, n) => image(n % 3, key)));
    const granted = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(granted).toHaveLength(quota);
    expect(refused).toHaveLength(quota * 2);

    // The upstream made exactly the images granted, with the operator's key, as OpenAI's API asks for them.
    const asked = upstream.calls.slice(before);
    expect(asked).toHaveLength(quota);
    for (const c of asked) {
      expect(c.authorization).toBe(`Bearer ${IMAGES_KEY}`);
      expect(c.body).toEqual({ model: 'gpt-image-1', prompt: 'A lighthouse at dusk', n: 1, size: SIZE });
    }
    // What the client received is the upstream's picture.
    const png = Buffer.from(granted[0]!.body.data[0]!.b64_json, 'base64');
    expect(await sharp(png).metadata()).toMatchObject({ format: 'png', width: 1024, height: 1024 });
    const { channels } = await sharp(png).stats();
    expect(channels.slice(0, 3).map((c) => [c.min, c.max])).toEqual([COLOUR.r, COLOUR.g, COLOUR.b].map((v) => [v, v]));

    for (const answer of refused) {
      expect(answer.headers.get('x-ratelimit-remaining-images')).toBe('0');
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // Spent on every instance: more is refused by each, and the upstream is not called.
    const spent = upstream.calls.length;
    for (const i of [0, 1, 2]) expect((await image(i, key)).status).toBe(429);
    expect(upstream.calls.length).toBe(spent);
  }, 60_000);

  it('refuses whole, on another instance and without calling the upstream, a request for more images than remain', async () => {
    const key = await newKey(1, 'starter');
    const quota = dailyImageQuota('starter');
    const before = upstream.calls.length;
    const first = await image(0, key, quota - 1);
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(quota - 1);
    expect(first.headers.get('x-ratelimit-remaining-images')).toBe('1');
    expect(askedSince(before)).toBe(quota - 1);

    const tooMany = await image(1, key, 2);
    expect(tooMany.status).toBe(429);
    expect(tooMany.headers.get('x-ratelimit-remaining-images')).toBe('1');
    expect(askedSince(before)).toBe(quota - 1);

    const last = await image(2, key, 1);
    expect(last.status).toBe(200);
    expect(last.headers.get('x-ratelimit-remaining-images')).toBe('0');
    expect(askedSince(before)).toBe(quota);
  }, 60_000);
});
