import { createGatewayClient } from 'ai-gateway-contract/client';

const client = createGatewayClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: 'sk-demo-starter' });
const { data, error } = await client.POST('/v1/generation/prompt', {
  body: { model: 'gpt-4o-mini', prompt: 'Write a haiku about the sea.' },
});
if (error) throw new Error(error.error);
console.log(data.choices[0].text);
