import Anthropic from '@anthropic-ai/sdk';

const anthropic = new Anthropic({ baseURL: 'http://127.0.0.1:8080', apiKey: 'sk-demo-economy' });

const { input_tokens } = await anthropic.messages.countTokens({
  model: 'claude-haiku-4-5',
  messages: [{ role: 'user', content: 'Hello!' }],
});
console.log(input_tokens);
