import OpenAI from 'openai';

// OpenAI's Responses API, as Codex CLI and the Agents SDK use it: base URL {base_url}/v1, the gateway key.
const openai = new OpenAI({ baseURL: 'http://127.0.0.1:8080/v1', apiKey: 'sk-demo-starter' });

const response = await openai.responses.create({ model: 'gpt-4o-mini', input: 'Hello!' });
console.log(response.output_text);

// Continue the conversation from the stored response.
const next = await openai.responses.create({ model: 'gpt-4o-mini', previous_response_id: response.id, input: 'And in French?' });
console.log(next.output_text);

const stream = openai.responses.stream({ model: 'gpt-4o-mini', input: 'Hello!' });
stream.on('response.output_text.delta', (event) => process.stdout.write(event.delta));
await stream.finalResponse();
