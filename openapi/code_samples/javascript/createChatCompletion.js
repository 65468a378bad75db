import { createGatewayClient, streamChatCompletion } from 'ai-gateway-contract/client';

const client = createGatewayClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: 'sk-demo-starter' });
const request = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello!' }] };

const { data, error } = await client.POST('/v1/chat/completions', { body: request });
if (error) throw new Error(error.error);
console.log(data.choices[0].message.content);

// Streamed: each chunk as it arrives; leaving the loop early cancels the request.
for await (const chunk of streamChatCompletion(client, request)) {
  process.stdout.write(chunk.choices[0]?.delta.content ?? '');
}
