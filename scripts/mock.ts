/**
 * The Prism mock for frontend work: every documented answer of the contract, on demand, with no state.
 *
 *   npm run mock                          http://127.0.0.1:4010
 *   MOCK_PORT=5000 MOCK_HOST=0.0.0.0 npm run mock
 *
 * Prism reloads by itself after `npm run generate`. Ctrl-C (or SIGTERM) stops Prism, and this script exits
 * with Prism's status.
 */
import { readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { root } from './lib/paths.ts';
import { startMock } from './lib/prism.ts';

const port = Number(process.env.MOCK_PORT ?? 4010);
const host = process.env.MOCK_HOST ?? '127.0.0.1';
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`MOCK_PORT must be a port number from 1 to 65535, not '${process.env.MOCK_PORT}'.`);
  process.exit(2);
}

// Prism's log is piped through this process; keep its colours when a person is watching.
if (process.stdout.isTTY) process.env.FORCE_COLOR ??= '1';

let mock;
try {
  mock = await startMock({ port, host, watch: true, onOutput: (line) => console.log(line) });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => void mock.close(signal));
}
mock.exited.then(({ code, signal }) => {
  process.exit(code ?? 128 + (signal ? constants.signals[signal] : 0));
});

console.log(usage(mock.baseUrl));

/**
 * The image answers' examples and the size each stands for (the `size` its `x-request` asks for), in the
 * contract's order: the first is what Prism answers when no example is asked for.
 */
function imageExamples(): Array<{ name: string; size: string }> {
  const spec = JSON.parse(readFileSync(join(root, 'generated', 'openapi.json'), 'utf8'));
  const examples = spec.components.responses.ImageResult.content['application/json'].examples as Record<string, { $ref: string }>;
  return Object.entries(examples).map(([name, ref]) => {
    const example = spec.components.examples[ref.$ref.split('/').at(-1)!];
    return { name, size: example['x-request'].body.size as string };
  });
}

function usage(base: string): string {
  const images = imageExamples();
  const shown = images[1] ?? images[0]!;
  return `
Mock of the AI Model Gateway API: ${base}  (Prism, from generated/openapi.json)

  OpenAI clients: baseURL ${base}/v1 and any key. Prism checks that a key is sent, not which one.

  curl -s ${base}/v1/models
  curl -s ${base}/v1/chat/completions -H 'x-api-key: sk-mock' -H 'content-type: application/json' \\
    -d '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"Hello!"}]}'

  Choose the answer with the Prefer header:
    Prefer: code=429                                        any documented status (401, 403, 404, 429, 500…)
    Prefer: example=ChatCompletionToolCallResponseExample   any named example of the spec
    Prefer: code=400, example=EndpointNotOffered            both at once
  Images of every documented size, one example each, as Prism cannot read "size" (${images[0]!.size} by default):
    Prefer: example=${shown.name}${' '.repeat(Math.max(1, 40 - shown.name.length))}also ${images.filter((i) => i !== shown).map((i) => i.name).join(', ')}
  Streaming: send Accept: text/event-stream (Prism picks the stream by Accept, not by "stream": true)
    and the whole example stream arrives at once, ending with data: [DONE]. It has no usage chunk, as
    without stream_options.include_usage; Prefer: example=ChatCompletionStreamUsageResponseExample has one.
  An invalid request gets the 400 example; the sl-violations header says what was wrong.

  Real keys, tiers, quotas, token-by-token streams and images: GATEWAY_STORE=memory npm start
  Ctrl-C stops the mock.
`;
}
