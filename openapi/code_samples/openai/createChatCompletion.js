import OpenAI from 'openai';

// Any OpenAI-compatible client works: base URL {base_url}/v1, the gateway key as the API key.
const openai = new OpenAI({ baseURL: 'http://127.0.0.1:8080/v1', apiKey: 'sk-demo-starter' });

const completion = await openai.chat.completions.create({
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: 'Hello!' }],
});
console.log(completion.choices[0].message.content);

const stream = await openai.chat.completions.create({
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: 'Hello!' }],
  stream: true,
});
for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta.content ?? '');
