import { writeFile } from 'node:fs/promises';
import { createGatewayClient, imageBytes } from 'ai-gateway-contract/client';

const client = createGatewayClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: 'sk-demo-starter' });
const { data, error } = await client.POST('/v1/generation/image', {
  params: { query: { model: 'image-gen' } },
  body: { prompt: 'A lighthouse on a cliff at dawn', size: '512x512', n: 1 },
});
if (error) throw new Error(error.error); // 429 once the daily image quota is used up
await writeFile('lighthouse.png', imageBytes(data.data[0].b64_json)); // in a browser: imageBlob(…)
