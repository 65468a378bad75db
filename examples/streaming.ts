/**
 * A streamed chat answer: print the text as it arrives, stop a second stream early (which cancels the
 * request), then gather a third stream into one chat.completion with its usage.
 *
 *   GATEWAY_URL=http://127.0.0.1:8080 GATEWAY_KEY=sk-demo-starter npx tsx examples/streaming.ts
 */
import { collectChatCompletion, createGatewayClient, GatewayError, streamChatCompletion } from '../src/client/index.ts';

const client = createGatewayClient({
  baseUrl: process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080',
  apiKey: process.env.GATEWAY_KEY ?? 'sk-demo-starter',
});
const request = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Tell me a short story about a lighthouse.' }] };

try {
  process.stdout.write('stream: ');
  for await (const chunk of streamChatCompletion(client, request)) process.stdout.write(chunk.choices[0]?.delta.content ?? '');
  process.stdout.write('\n');

  // Leaving the loop early cancels the request: the gateway stops generating.
  let pieces = 0;
  for await (const chunk of streamChatCompletion(client, request)) {
    if (chunk.choices[0]?.delta.content && ++pieces === 3) break;
  }
  console.log(`stopped after ${pieces} pieces`);

  const completion = await collectChatCompletion(streamChatCompletion(client, { ...request, stream_options: { include_usage: true } }));
  console.log(`collected: ${completion.object}, finish_reason ${completion.choices[0]?.finish_reason}, ${completion.usage?.total_tokens} tokens`);
} catch (error) {
  // A refused request (wrong key, model above the tier…) or an error event in the stream.
  if (error instanceof GatewayError) console.error(`gateway error ${error.status}: ${error.message}`);
  throw error;
}
