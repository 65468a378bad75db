/**
 * A micro-benchmark of the text engine on distinct requests (no cache hits), as the HTTP benchmark sends
 * them (`scripts/bench/requests.ts`): a system message and a user message with a different 33-character
 * ticket id on every request. Prints the median time per
 * request in microseconds. Run it with `npx tsx src/server/engine/text/bench.ts [count]`.
 */
import { performance } from 'node:perf_hooks';
import { answerChat, completePrompt } from './index.ts';
import type { ChatRequest } from './chat.ts';
import { hashString } from './random.ts';

const count = Number(process.argv[2] ?? 5000);

/**
 * A 33-character id like the ones autocannon puts in place of `[<id>]`: a random 22-character prefix for
 * each connection and a 10-digit counter (hyperid, url-safe, fixed length).
 */
const PREFIX = `${hashString('bench').toString(36)}${hashString('bench', 1).toString(36)}`.padEnd(22, 'Q').slice(0, 22);
function ticketId(i: number): string {
  return `${PREFIX}-${String(i).padStart(10, '0')}`;
}

function chatRequest(i: number): ChatRequest {
  const messages = [
    { role: 'system', content: 'You are a concise assistant.' },
    { role: 'user', content: `Ticket ${ticketId(i)}: Write three sentences about tides and the moon.` },
  ];
  return { model: 'gpt-4o-mini', messages: messages as unknown as ChatRequest['messages'], temperature: null, seed: null, maxTokens: null, parallelToolCalls: true };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function measure(label: string, run: (i: number) => unknown, offset: number): void {
  for (let i = 0; i < 500; i++) run(offset + 1_000_000 + i); // warm-up, distinct from the measured requests
  const times: number[] = [];
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    run(offset + i);
    times.push((performance.now() - t0) * 1000);
  }
  const total = performance.now() - start;
  console.log(`${label}: median ${median(times).toFixed(1)} µs, mean ${((total * 1000) / count).toFixed(1)} µs over ${count} distinct requests`);
}

measure('chat completion', (i) => answerChat(chatRequest(i)), 0);
measure('chat completion, max_tokens 16', (i) => answerChat({ ...chatRequest(i), maxTokens: 16 }), 10_000_000);
measure('prompt completion', (i) => completePrompt({ model: 'gpt-4o-mini', prompt: `Ticket ${ticketId(i)}: The history of Rome` }), 20_000_000);
