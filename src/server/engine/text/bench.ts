/**
 * A micro-benchmark of the text engine on distinct requests (no cache hits), as the HTTP benchmark sends
 * them (`scripts/bench/requests.ts`): a system message and a user message with a different 33-character
 * ticket id on every request. Prints the median and mean time per request in microseconds, twice: with
 * the engine's tables warm in the processor caches, as a loop of engine calls alone keeps them, and cold,
 * with 16 MB of other memory touched between requests. Inside the server, the HTTP work between two
 * answers displaces the tables as well, and the engine there costs about what the cold rows show.
 *
 *   npx tsx src/server/engine/text/bench.ts [count]
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

/** Memory the size of a large cache level, read and written between cold requests. */
const other = new Float64Array((16 * 1024 * 1024) / 8);
function displaceCaches(): void {
  for (let i = 0; i < other.length; i += 8) other[i]! += 1; // one touch per 64-byte line
}

function measure(label: string, run: (i: number) => unknown, offset: number, cold: boolean): void {
  for (let i = 0; i < 500; i++) run(offset + 1_000_000 + i); // warm-up, distinct from the measured requests
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    if (cold) displaceCaches();
    const t0 = performance.now();
    run(offset + i);
    times.push((performance.now() - t0) * 1000);
  }
  const mean = times.reduce((a, b) => a + b, 0) / count;
  console.log(`${label}, ${cold ? 'cold' : 'warm'}: median ${median(times).toFixed(1)} µs, mean ${mean.toFixed(1)} µs over ${count} distinct requests`);
}

for (const cold of [false, true]) {
  const base = cold ? 100_000_000 : 0; // other requests than the warm rows
  measure('chat completion', (i) => answerChat(chatRequest(i)), base, cold);
  measure('chat completion, max_tokens 16', (i) => answerChat({ ...chatRequest(i), maxTokens: 16 }), base + 10_000_000, cold);
  measure('prompt completion', (i) => completePrompt({ model: 'gpt-4o-mini', prompt: `Ticket ${ticketId(i)}: The history of Rome` }), base + 20_000_000, cold);
}
