/**
 * The typed client: list the models, answer a chat, complete a prompt, and read an error.
 *
 *   GATEWAY_URL=http://127.0.0.1:8080 GATEWAY_KEY=sk-demo-starter npx tsx examples/typed-client.ts
 *
 * Outside this repository, import from 'ai-gateway-contract/client' instead of '../src/client/index.ts'.
 */
import { createGatewayClient } from '../src/client/index.ts';

const client = createGatewayClient({
  baseUrl: process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080',
  apiKey: process.env.GATEWAY_KEY ?? 'sk-demo-starter',
});

// Every call returns { data } or { error }; the compiler knows the shape of both.
const models = await client.GET('/v1/models');
if (models.error) throw new Error(models.error.error);
console.log(`models: ${models.data.models.map((m) => `${m.id} (${m.tier})`).join(', ')}`);

const chat = await client.POST('/v1/chat/completions', {
  body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Give me one tip for writing clear error messages.' }] },
});
if (chat.error) throw new Error(chat.error.error);
console.log(`chat: ${chat.data.choices[0]?.message.content}`);
console.log(`tokens: ${chat.data.usage.total_tokens}, billed: ${chat.response.headers.get('x-gateway-billed-tokens')}`);

const text = await client.POST('/v1/generation/prompt', { body: { model: 'gpt-4o-mini', prompt: 'Write a haiku about the sea.' } });
if (text.error) throw new Error(text.error.error);
console.log(`prompt: ${text.data.choices[0]?.text.trim()}`); // completions start where the prompt ends, often with a line break

// Errors are answers too: a model above the key's tier is 403, with a message that says why.
const denied = await client.POST('/v1/chat/completions', {
  body: { model: 'claude-opus-4-1', messages: [{ role: 'user', content: 'Hello!' }] },
});
if (denied.error) console.log(`error ${denied.response.status}: ${denied.error.error}`);
