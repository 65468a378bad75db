/**
 * Image generation and an inpainting edit, written as PNG files: generate a picture, draw a mask whose
 * white rectangle marks the area to change, and send the edit from bytes.
 *
 *   GATEWAY_URL=http://127.0.0.1:8080 GATEWAY_KEY=sk-demo-pro npx tsx examples/images.ts [output-folder]
 *
 * Uses 2 images of the key's daily quota. The default key is pro's (25 a day), so that the README's
 * walk-through can be followed several times a day; starter's 3 would not last two runs.
 */
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { createGatewayClient, editImageFromBytes, imageBytes } from '../src/client/index.ts';

const client = createGatewayClient({
  baseUrl: process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080',
  apiKey: process.env.GATEWAY_KEY ?? 'sk-demo-pro',
});
const folder = process.argv[2] ?? (await mkdtemp(join(tmpdir(), 'gateway-images-')));
await mkdir(folder, { recursive: true });

const generated = await client.POST('/v1/generation/image', {
  params: { query: { model: 'image-gen' } },
  body: { prompt: 'A lighthouse on a cliff at dawn', size: '512x512', n: 1 },
});
if (generated.error) throw new Error(generated.error.error);
const picture = imageBytes(generated.data.data[0]!.b64_json);
await writeFile(join(folder, 'generated.png'), picture);
console.log(`generated: ${join(folder, 'generated.png')} (${picture.length} bytes)`);
console.log(`images left today: ${generated.response.headers.get('x-ratelimit-remaining-images')}`);

// The mask: black keeps, white changes. Here the lower right quarter.
const mask = await sharp({ create: { width: 512, height: 512, channels: 3, background: 'black' } })
  .composite([{ input: { create: { width: 256, height: 256, channels: 3, background: 'white' } }, left: 256, top: 256 }])
  .png()
  .toBuffer();
await writeFile(join(folder, 'mask.png'), mask);

const edited = await editImageFromBytes(client, { prompt: 'Add a red sailing boat on the water', image: picture, mask, size: '512x512' });
if (edited.error) throw new Error(edited.error.error);
await writeFile(join(folder, 'edited.png'), imageBytes(edited.data.data[0]!.b64_json));
console.log(`edited: ${join(folder, 'edited.png')}`);
