/**
 * A micro-benchmark of the text engine alone, on varied requests: questions of many kinds and lengths, with
 * and without a system message, with function tools, prompt completions, and the same request repeated. It
 * prints the median and mean time per request, then the time per kilobyte of prompts from 1 KB to 1 MB of
 * ordinary prose, which must stay flat: the engine is linear in the length of what it reads.
 *
 *   npx tsx scripts/bench/engine-text.ts [count]
 */
import { Rng } from '../../src/lib/random.ts';
import { answerChat, completePrompt } from '../../src/server/domain/engine/text/index.ts';
import type { ChatRequest } from '../../src/server/domain/chat.ts';

const count = Number(process.argv[2] ?? 3000);

const OPENERS = ['What is', 'How do I', 'Why does', 'Can you explain', 'Write a poem about', 'List five facts about', 'Tell me about', 'Summarize', ''];
const SUBJECTS = [
  'the tides and the moon', 'a sourdough starter', 'TCP congestion control', 'the Roman Empire', 'my garden in Lyon',
  'Ada Lovelace and Charles Babbage', 'the 2024 budget of 1.2 million', 'Grüße aus Zürich', '東京の天気', 'a TypeError in JavaScript',
];
const FILLER = 'It started when we moved house last spring, and since then nothing has quite worked the way it used to.';

/** A different question every time: an opener, a subject, sometimes a sentence or a paragraph of context. */
function question(rng: Rng): string {
  const context = Array.from({ length: rng.int(0, 6) }, () => FILLER).join(' ');
  return `${context} ${rng.pick(OPENERS)} ${rng.pick(SUBJECTS)} (${rng.int(1, 1_000_000)})?`.trim();
}

const WEATHER = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Current weather in a city.',
    parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { enum: ['celsius', 'fahrenheit'] } }, required: ['city'] },
  },
};

function chat(rng: Rng): ChatRequest {
  const messages: ChatRequest['messages'] = [{ role: 'user', content: question(rng) }];
  if (rng.chance(0.5)) messages.unshift({ role: 'system', content: 'You are a concise assistant.' });
  return { model: 'gpt-4o-mini', messages, temperature: rng.pick([0, 0.7, 1]), seed: rng.int(0, 99), ...(rng.chance(0.2) && { tools: [WEATHER] }) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function measure(label: string, run: (rng: Rng) => unknown): void {
  for (let i = 0; i < 300; i++) run(new Rng(1_000_000 + i)); // warm-up
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const rng = new Rng(i);
    const t0 = performance.now();
    run(rng);
    times.push((performance.now() - t0) * 1000);
  }
  const mean = times.reduce((a, b) => a + b, 0) / count;
  console.log(`${label.padEnd(44)} median ${median(times).toFixed(1).padStart(7)} µs   mean ${mean.toFixed(1).padStart(7)} µs   (${count} requests)`);
}

measure('chat, varied questions', (rng) => answerChat(chat(rng)));
measure('chat, varied questions, max_tokens 16', (rng) => answerChat({ ...chat(rng), maxTokens: 16 }));
measure('prompt completion, varied prompts', (rng) => completePrompt({ model: 'gpt-4o-mini', prompt: question(rng) }));
const same = chat(new Rng(42));
measure('chat, the same request again and again', () => answerChat(same));

console.log('\nprompt length (ordinary prose) → time per KB, which stays flat when the engine is linear');
const prose = Array.from({ length: 12_000 }, (_, i) => `${FILLER} Entry ${i} of the log says the ${SUBJECTS[i % SUBJECTS.length]} came up again.`).join(' ');
for (const kb of [1, 10, 100, 1000]) {
  const prompt = prose.slice(0, kb * 1024);
  const runs = kb >= 1000 ? 3 : 10;
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    answerChat({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `${prompt} What do you make of it (${i})?` }] });
    times.push(performance.now() - t0);
  }
  console.log(`  ${String(kb).padStart(5)} KB: ${median(times).toFixed(1).padStart(8)} ms per request, ${(median(times) / kb).toFixed(3)} ms per KB`);
}
