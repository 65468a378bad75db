import { readFile, writeFile } from 'node:fs/promises';
import { createGatewayClient, editImageFromBytes, imageBytes } from 'ai-gateway-contract/client';

const client = createGatewayClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: 'sk-demo-starter' });
// Inpainting: the mask's white pixels mark what to change. Without a mask, the edit is a variation.
const { data, error } = await editImageFromBytes(client, {
  prompt: 'Add a red sailing boat on the water',
  image: await readFile('sea.png'),
  mask: await readFile('mask.png'),
  size: '512x512',
});
if (error) throw new Error(error.error);
await writeFile('sea-with-boat.png', imageBytes(data.data[0].b64_json));
