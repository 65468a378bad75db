/**
 * The official `openai` package, unchanged, pointed at the gateway: a chat answer, then a function tool
 * round trip (the model calls the tool, we run it, the model answers with its result).
 *
 *   GATEWAY_URL=http://127.0.0.1:8080 GATEWAY_KEY=sk-demo-starter npx tsx examples/openai-sdk.ts
 */
import OpenAI from 'openai';

const openai = new OpenAI({
  baseURL: `${process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080'}/v1`,
  apiKey: process.env.GATEWAY_KEY ?? 'sk-demo-starter',
});

const hello = await openai.chat.completions.create({
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: 'Say hello to a new colleague.' }],
});
console.log(`chat: ${hello.choices[0]?.message.content}`);

// A tool the model may call; here it is a local function.
const tools: OpenAI.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Current weather in a city.',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
];
const getWeather = ({ city }: { city: string }) => ({ city, temperature: 21, condition: 'sunny' });

const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'What is the weather in Paris?' }];
const first = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages, tools });
const reply = first.choices[0]!.message;
messages.push(reply);
for (const call of reply.tool_calls ?? []) {
  if (call.type !== 'function') continue;
  console.log(`tool call: ${call.function.name}(${call.function.arguments})`);
  messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(getWeather(JSON.parse(call.function.arguments))) });
}
const final = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages, tools });
console.log(`answer: ${final.choices[0]?.message.content}`);
