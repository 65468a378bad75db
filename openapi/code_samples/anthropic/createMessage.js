import Anthropic from '@anthropic-ai/sdk';

// Anthropic's SDK adds /v1/messages itself: the base URL is the gateway's root, without /v1.
const anthropic = new Anthropic({ baseURL: 'http://127.0.0.1:8080', apiKey: 'sk-demo-economy' });

const message = await anthropic.messages.create({
  model: 'claude-haiku-4-5',
  max_tokens: 256,
  messages: [{ role: 'user', content: 'Hello!' }],
});
console.log(message.content[0].text);

const stream = anthropic.messages.stream({
  model: 'claude-haiku-4-5',
  max_tokens: 256,
  messages: [{ role: 'user', content: 'Hello!' }],
});
stream.on('text', (text) => process.stdout.write(text));
await stream.finalMessage();
