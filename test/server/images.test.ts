import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { startServer, useServer } from '../helpers/server.ts';
import { call } from './http.ts';

const server = useServer();

const generate = (key: string, body: Record<string, unknown>, base = server.baseUrl) =>
  call(base, 'POST', '/v1/generation/image?model=image-gen', { key, body });

async function decode(b64: string) {
  const { data, info } = await sharp(Buffer.from(b64, 'base64')).raw().toBuffer({ resolveWithObject: true });
  return { data, info };
}

describe('image generation', () => {
  it('returns n PNGs of exactly the requested size, deterministic per prompt, size and index', async () => {
    const res = await generate('sk-demo-ultimate', { prompt: 'A red fox in snow', size: '256x256', n: 2 });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(2);
    for (const image of res.body.data) {
      expect(Buffer.from(image.b64_json, 'base64').subarray(1, 4).toString()).toBe('PNG');
      const { info } = await decode(image.b64_json);
      expect([info.width, info.height]).toEqual([256, 256]);
    }
    expect(res.body.data[0].b64_json).not.toBe(res.body.data[1].b64_json);
    const again = await generate('sk-demo-ultimate', { prompt: 'A red fox in snow', size: '256x256', n: 1 });
    expect(again.body.data[0].b64_json).toBe(res.body.data[0].b64_json);
    expect(res.headers.get('x-ratelimit-limit-images')).toBe('50');
  });

  it('defaults to 1024x1024 and refuses unsupported sizes naming the supported ones', async () => {
    const res = await generate('sk-demo-ultimate', { prompt: 'Default size' });
    const { info } = await decode(res.body.data[0].b64_json);
    expect([info.width, info.height]).toEqual([1024, 1024]);
    const odd = await generate('sk-demo-ultimate', { prompt: 'x', size: '300x200' });
    expect(odd.status).toBe(400);
    expect(odd.body.error).toContain('512x512');
  });
});

describe('the daily image quota', () => {
  it('allows exactly the tier quota per day, then 429 with Retry-After and x-should-retry: false', async () => {
    const s = await startServer();
    try {
      const first = await generate('sk-demo-starter', { prompt: 'one', size: '256x256', n: 2 }, s.baseUrl);
      expect(first.status).toBe(200);
      expect(first.headers.get('x-ratelimit-remaining-images')).toBe('1');
      const tooMany = await generate('sk-demo-starter', { prompt: 'two', size: '256x256', n: 2 }, s.baseUrl);
      expect(tooMany.status).toBe(429);
      expect(tooMany.body).toEqual({ error: 'Daily quota exceeded.' });
      // failed whole and charged nothing: the last image is still there
      const last = await generate('sk-demo-starter', { prompt: 'three', size: '256x256', n: 1 }, s.baseUrl);
      expect(last.status).toBe(200);
      const over = await generate('sk-demo-starter', { prompt: 'four', size: '256x256' }, s.baseUrl);
      expect(over.status).toBe(429);
      const retryAfter = Number(over.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(86400);
      expect(over.headers.get('x-should-retry')).toBe('false');
    } finally {
      await s.close();
    }
  });

  it('never grants more than the quota to concurrent requests', async () => {
    const s = await startServer();
    try {
      const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => generate('sk-demo-economy', { prompt: `c${i}`, size: '256x256' }, s.baseUrl)));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(10);
      expect(answers.filter((a) => a.status === 429)).toHaveLength(2);
    } finally {
      await s.close();
    }
  });

  it('counts edits against the same quota and resets at midnight UTC', async () => {
    let now = new Date('2026-03-01T23:59:58Z');
    const s = await startServer({ now: () => now });
    try {
      const png = (await sharp({ create: { width: 64, height: 64, channels: 3, background: '#336699' } }).png().toBuffer()).toString('base64');
      expect((await generate('sk-demo-starter', { prompt: 'a', size: '256x256', n: 2 }, s.baseUrl)).status).toBe(200);
      const edit = await call(s.baseUrl, 'POST', '/v1/generation/image/edit', { key: 'sk-demo-starter', body: { prompt: 'b', image: png, size: '512x512' } });
      expect(edit.status).toBe(200);
      const over = await generate('sk-demo-starter', { prompt: 'c', size: '256x256' }, s.baseUrl);
      expect(over.status).toBe(429);
      expect(over.headers.get('retry-after')).toBe('2');
      now = new Date('2026-03-02T00:00:01Z');
      expect((await generate('sk-demo-starter', { prompt: 'd', size: '256x256' }, s.baseUrl)).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});

describe('image edit', () => {
  it('with a mask changes only the pixels under its white area', async () => {
    const size = 512;
    const source = await sharp({ create: { width: size, height: size, channels: 3, background: '#2a6f97' } })
      .composite([{ input: await sharp({ create: { width: 200, height: 120, channels: 3, background: '#f4a261' } }).png().toBuffer(), left: 40, top: 300 }])
      .png()
      .toBuffer();
    const maskPixels = Buffer.alloc(size * size);
    for (let y = 100; y < 220; y++) for (let x = 250; x < 450; x++) maskPixels[y * size + x] = 255;
    const mask = await sharp(maskPixels, { raw: { width: size, height: size, channels: 1 } }).png().toBuffer();
    const res = await call(server.baseUrl, 'POST', '/v1/generation/image/edit', {
      key: 'sk-demo-ultimate',
      body: { prompt: 'A sailing boat', image: source.toString('base64'), mask: `data:image/png;base64,${mask.toString('base64')}`, size: '512x512' },
    });
    expect(res.status).toBe(200);
    const out = await decode(res.body.data[0].b64_json);
    const src = await sharp(source).removeAlpha().raw().toBuffer();
    const channels = out.info.channels;
    let changedInside = 0;
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const i = (y * size + x) * channels;
        const j = (y * size + x) * 3;
        const same = out.data[i] === src[j] && out.data[i + 1] === src[j + 1] && out.data[i + 2] === src[j + 2];
        if (maskPixels[y * size + x]) changedInside += same ? 0 : 1;
        else if (!same) throw new Error(`pixel ${x},${y} outside the mask changed`);
      }
    }
    expect(changedInside).toBeGreaterThan(200 * 120 * 0.5);
  });

  it('without a mask makes n variations of the requested size', async () => {
    const png = (await sharp({ create: { width: 300, height: 200, channels: 3, background: '#e76f51' } }).jpeg().toBuffer()).toString('base64');
    const res = await call(server.baseUrl, 'POST', '/v1/generation/image/edit', {
      key: 'sk-demo-ultimate',
      body: { prompt: 'At night', image: `data:image/jpeg;base64,${png}`, size: '512x512', n: 2 },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(2);
    const { info } = await decode(res.body.data[1].b64_json);
    expect([info.width, info.height]).toEqual([512, 512]);
  });

  it('answers the specified message when the image is missing, and a clear 400 when it does not decode', async () => {
    const missing = await call(server.baseUrl, 'POST', '/v1/generation/image/edit', { key: 'sk-demo-starter', body: { prompt: 'x' } });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'Image is required for editing.' });
    const garbage = await call(server.baseUrl, 'POST', '/v1/generation/image/edit', { key: 'sk-demo-starter', body: { prompt: 'x', image: 'bm90IGFuIGltYWdl' } });
    expect(garbage.status).toBe(400);
    expect(garbage.body.error).toContain("'image'");
  });
});
