// The OpenAI Images upstream: a generation and an edit sent over real HTTP (the upstream client to a small
// server that records what arrives and answers OpenAI's documented examples, fixtures/openai-images/), and
// the answers read back, documented and wrong.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { prepareOpenAiEdit } from '../../src/server/domain/engine/images/index.ts';
import { UpstreamError } from '../../src/server/upstream/errors.ts';
import { defaultTimeouts, UpstreamClient } from '../../src/server/upstream/http.ts';
import { editForm, generationRequest, imagesFrom } from '../../src/server/upstream/protocols/openai-images.ts';
import { fixtureJson, upstreamErrorOf } from './streams.ts';

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

interface Answer {
  status: number;
  body: string;
}

const KEY = 'sk-test-images';

let server: Server;
let client: UpstreamClient;
let origin: string;
const received: Received[] = [];
let answer: (request: Received) => Answer;

const json = (value: unknown, status = 200): Answer => ({ status, body: JSON.stringify(value) });

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) };
      received.push(request);
      const { status, body } = answer(request);
      res.writeHead(status, { 'content-type': 'application/json' }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = new UpstreamClient({ baseUrl: `${origin}/v1`, headers: { authorization: `Bearer ${KEY}` }, timeouts: defaultTimeouts });
});

afterAll(async () => {
  await client.close();
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
});

beforeEach(() => {
  received.length = 0;
  answer = () => json(fixtureJson('openai-images/generation.json'));
});

/** The multipart body a request carried, parsed by the platform's own reader. */
function formOf(request: Received): Promise<FormData> {
  return new Request(`${origin}${request.url}`, { method: 'POST', headers: { 'content-type': String(request.headers['content-type']) }, body: new Uint8Array(request.body) }).formData();
}

async function png(width: number, height: number, background: string): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background } }).png().toBuffer();
}

async function raw(bytes: Buffer) {
  return sharp(bytes).raw().toBuffer({ resolveWithObject: true });
}

/** An answer of OpenAI's documented shape (the fixture's envelope) carrying these pictures. */
function withPictures(fixture: string, pictures: Buffer[]): Answer {
  return json({ ...fixtureJson<Record<string, unknown>>(fixture), data: pictures.map((picture) => ({ b64_json: picture.toString('base64') })) });
}

describe('OpenAI Images upstream: generation', () => {
  it('asks for the model, prompt, n and size, and nothing else (no response_format: GPT Image models refuse it)', () => {
    expect(generationRequest({ prompt: 'A lighthouse at dusk', size: '1024x1024', n: 2 }, 'gpt-image-1')).toEqual({
      path: '/images/generations',
      body: { model: 'gpt-image-1', prompt: 'A lighthouse at dusk', n: 2, size: '1024x1024' },
    });
  });

  it('is sent as JSON to {base_url}/images/generations with the key, and its pictures come back as PNGs', async () => {
    const pictures = [await png(16, 16, '#e63946'), await png(16, 16, '#2a9d8f')];
    answer = () => withPictures('openai-images/generation.json', pictures);
    const { path, body } = generationRequest({ prompt: 'A lighthouse at dusk', size: '1024x1024', n: 2 }, 'gpt-image-1');
    const pngs = imagesFrom(await client.json(path, body), 2);
    expect(pngs).toEqual(pictures);
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe('/v1/images/generations');
    expect(request!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request!.body.toString('utf8'))).toEqual({ model: 'gpt-image-1', prompt: 'A lighthouse at dusk', n: 2, size: '1024x1024' });
  });
});

describe('OpenAI Images upstream: edit', () => {
  // A 300×200 source and a 64×64 mask, white in [16, 40) × [8, 24): at 512×512 each mask pixel is an 8×8
  // block, so the white area is [128, 320) × [64, 192).
  const inRectangle = (x: number, y: number) => x >= 128 && x < 320 && y >= 64 && y < 192;

  it('sends a multipart form: the text fields, the source as a PNG of the output size, the mask transparent exactly where it was white', async () => {
    const source = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#264653' } }).png().toBuffer();
    const maskPixels = Buffer.alloc(64 * 64 * 3);
    for (let y = 8; y < 24; y++) maskPixels.fill(255, (y * 64 + 16) * 3, (y * 64 + 40) * 3);
    const mask = await sharp(maskPixels, { raw: { width: 64, height: 64, channels: 3 } }).png().toBuffer();
    const edited = await png(512, 512, '#f4a261');
    answer = () => withPictures('openai-images/image-response.json', [edited]);

    const prepared = await prepareOpenAiEdit({ image: source.toString('base64'), mask: `data:image/png;base64,${mask.toString('base64')}`, width: 512, height: 512 });
    const { path, form } = editForm(prepared, { prompt: 'Add a red kite', size: '512x512', n: 1 }, 'gpt-image-1');
    expect(path).toBe('/images/edits');
    expect(imagesFrom(await client.form(path, form), 1)).toEqual([edited]);

    const [request] = received;
    expect(request!.url).toBe('/v1/images/edits');
    expect(request!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const sent = await formOf(request!);
    expect([...sent.keys()]).toEqual(['model', 'prompt', 'n', 'size', 'image', 'mask']);
    expect([sent.get('model'), sent.get('prompt'), sent.get('n'), sent.get('size')]).toEqual(['gpt-image-1', 'Add a red kite', '1', '512x512']);

    const image = sent.get('image') as File;
    expect([image.name, image.type]).toEqual(['image.png', 'image/png']);
    const imageBytes = Buffer.from(await image.arrayBuffer());
    expect(imageBytes.equals(prepared.image)).toBe(true);
    expect(await sharp(imageBytes).metadata()).toMatchObject({ format: 'png', width: 512, height: 512 });

    const maskFile = sent.get('mask') as File;
    expect([maskFile.name, maskFile.type]).toEqual(['mask.png', 'image/png']);
    const { data, info } = await raw(Buffer.from(await maskFile.arrayBuffer()));
    expect([info.format, info.width, info.height, info.channels]).toEqual(['raw', 512, 512, 4]);
    for (let y = 0; y < 512; y++) {
      for (let x = 0; x < 512; x++) {
        const alpha = data[(y * 512 + x) * 4 + 3];
        if (alpha !== (inRectangle(x, y) ? 0 : 255)) expect.fail(`mask alpha at (${x}, ${y}) is ${alpha}`);
      }
    }
  });

  it('sends no mask part for a variation', async () => {
    const source = await png(64, 64, '#8ab17d');
    answer = () => withPictures('openai-images/image-response.json', [source]);
    const prepared = await prepareOpenAiEdit({ image: source.toString('base64'), width: 64, height: 64 });
    const { path, form } = editForm(prepared, { prompt: 'In autumn', size: '1024x1024', n: 1 }, 'gpt-image-1');
    await client.form(path, form);
    const sent = await formOf(received[0]!);
    expect([...sent.keys()]).toEqual(['model', 'prompt', 'n', 'size', 'image']);
  });
});

describe('OpenAI Images upstream: answers', () => {
  it('reads the documented answers: the generation example and the image response object', () => {
    for (const fixture of ['openai-images/generation.json', 'openai-images/image-response.json']) {
      const [picture, ...rest] = imagesFrom(fixtureJson(fixture), 1);
      expect(rest).toEqual([]);
      expect(picture!.subarray(1, 4).toString('latin1')).toBe('PNG');
    }
  });

  it('returns fewer pictures than asked for as they came, and refuses more', async () => {
    const one = (await png(4, 4, '#000000')).toString('base64');
    expect(imagesFrom({ created: 1, data: [{ b64_json: one }] }, 3)).toHaveLength(1);
    const error = upstreamErrorOf(() => imagesFrom({ created: 1, data: [{ b64_json: one }, { b64_json: one }] }, 1));
    expect([error.failure, error.message]).toEqual(['malformed', 'The OpenAI Images upstream sent 2 images where the request asked for 1.']);
  });

  it('names DALL·E when the answer carries image URLs instead of base64 (the documented variation answer)', () => {
    const error = upstreamErrorOf(() => imagesFrom(fixtureJson('openai-images/variation.json'), 2));
    expect(error.failure).toBe('malformed');
    expect(error.message).toBe(
      'The OpenAI Images upstream sent image URLs (`url`) where the gateway needs the images themselves in base64 (`b64_json`), as a DALL·E model answers: ' +
        'the gateway sends no `response_format` (the GPT Image models refuse it, and always answer base64). ' +
        "Name a GPT Image model (such as gpt-image-1) as this upstream's model.",
    );
  });

  it('refuses what is not an image answer, naming what is wrong', () => {
    const cases: Array<[unknown, string]> = [
      ['Done!', 'an answer that is not an image response (no `data` list)'],
      [{ created: 1 }, 'an answer that is not an image response (no `data` list)'],
      [{ data: { b64_json: 'iVBO' } }, 'an answer that is not an image response (no `data` list)'],
      [{ data: ['iVBO'] }, 'image 0 as something that is not an object'],
      [{ data: [{ revised_prompt: 'A boat' }] }, 'image 0 without its `b64_json`'],
      [{ data: [{ b64_json: 'not base64!' }] }, 'image 0 with a `b64_json` that is not base64'],
      [{ data: [{ b64_json: 'iVBORw0KGgo' }] }, 'image 0 with a `b64_json` that is not base64'],
      [{ data: [{ b64_json: Buffer.from('GIF89a, not a PNG').toString('base64') }] }, 'image 0 with a `b64_json` that is not a PNG (the gateway sends no `output_format`: PNG, the default, is what it expects)'],
    ];
    for (const [body, what] of cases) {
      const error = upstreamErrorOf(() => imagesFrom(body, 2));
      expect([error.failure, error.message]).toEqual(['malformed', `The OpenAI Images upstream sent ${what}.`]);
    }
  });
});

describe('OpenAI Images upstream: failures over HTTP', () => {
  it('an error status is an UpstreamError with the status and OpenAI’s message, for a form as for JSON', async () => {
    const documented = fixtureJson<{ error: { message: string } }>('openai-images/error.json');
    answer = () => json(documented, 400);
    const prepared = await prepareOpenAiEdit({ image: (await png(8, 8, '#ffffff')).toString('base64'), width: 8, height: 8 });
    const { path, form } = editForm(prepared, { prompt: 'x', size: '1536x1024', n: 1 }, 'dall-e-2');
    const generation = generationRequest({ prompt: 'x', size: '1536x1024', n: 1 }, 'dall-e-2');
    for (const sending of [client.form(path, form), client.json(generation.path, generation.body)]) {
      const error = await sending.then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(UpstreamError);
      const { failure, message, detail } = error as UpstreamError;
      expect([failure, message, detail]).toEqual(['status', `The upstream ${origin} answered 400.`, { status: 400, upstreamMessage: documented.error.message }]);
      expect(message).not.toContain(KEY);
    }
  });

  it('an answer to a form that is not JSON is malformed', async () => {
    answer = () => ({ status: 200, body: '<html>Bad gateway</html>' });
    const { path, form } = editForm({ image: await png(8, 8, '#ffffff') }, { prompt: 'x', size: '1024x1024', n: 1 }, 'gpt-image-1');
    const error = await client.form(path, form).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect([(error as UpstreamError).failure, (error as UpstreamError).message]).toEqual(['malformed', `The upstream ${origin} answered something that is not JSON.`]);
  });
});
