/** The requests the benchmark sends, the same to every server. */
import { Rng } from '../../src/lib/random.ts';
import type { LoadSpec } from './load.ts';

/** GET /v1/models with a key (the listing is public, but a key is how clients call it). */
export function modelsRequest(key: string): LoadSpec {
  return { method: 'GET', path: '/v1/models', headers: { 'x-api-key': key } };
}

/** The system prompt of every request, and the one question of a request that is sent alone (captured, probed, streamed). */
export const SYSTEM = 'You are a concise assistant.';
export const QUESTION = 'Write three sentences about tides and the moon.';

const subjects = [
  'tides and the moon', 'volcanoes', 'the history of tea', 'bread baking', 'honey bees', 'solar panels', 'glaciers',
  'chess openings', 'coral reefs', 'the printing press', 'jazz', 'migrating birds', 'rainforests', 'electric cars',
  'Roman roads', 'sourdough starters', 'black holes', 'origami', 'lighthouses', 'bicycle gears', 'deep sea fish',
  'wind turbines', 'the water cycle', 'ancient Egypt', 'vaccines', 'compound interest', 'photosynthesis', 'earthquakes',
  'the Silk Road', 'recycling plastic', 'coffee roasting', 'the human heart', 'satellites', 'sleep', 'mushrooms',
  'tax returns', 'the Olympic games', 'rain gardens', 'sign language', 'typewriters',
];
const audiences = [
  'a child', 'an engineer', 'my grandmother', 'a tourist', 'a new student', 'a busy manager', 'a farmer', 'a nurse',
  'a chef', 'a painter', 'a retired pilot', 'a shop owner', 'a teenager', 'a librarian', 'a sailor', 'a musician',
  'a city planner', 'a beekeeper', 'a judge', 'a software tester',
];
const tones = ['friendly', 'formal', 'playful', 'calm', 'precise', 'enthusiastic', 'plain', 'poetic'];
const counts = ['two', 'three', 'four', 'five'];
const frames: Array<(s: string, a: string, t: string, n: string) => string> = [
  (s, a, t, n) => `Write ${n} ${t} sentences about ${s} for ${a}.`,
  (s, a, t, n) => `Explain ${s} to ${a} in ${n} ${t} sentences.`,
  (s, a, t, n) => `What should ${a} know about ${s}? Give ${n} ${t} points.`,
  (s, a, t, n) => `Give ${a} a ${t} summary of ${s} in ${n} lines.`,
  (s, a, t, n) => `Why does ${s} matter to ${a}? Answer in ${n} ${t} sentences.`,
  (s, a, t, n) => `List ${n} facts about ${s} that ${a} would enjoy, in a ${t} tone.`,
  (s, a, t, n) => `How would you teach ${s} to ${a}, in ${n} ${t} steps?`,
  (s, a, t, n) => `Tell ${a} ${n} surprising things about ${s}, in a ${t} tone.`,
  (s, a, t, n) => `Describe ${s} in a ${t} way for ${a}, in ${n} sentences.`,
  (s, a, t, n) => `Help ${a} understand ${s}: ${n} ${t} paragraphs.`,
];

/**
 * Short prompts (a sentence, about 15 tokens) that differ from one request to the next in their words, as
 * real traffic does: 10 frames × 40 subjects × 20 readers × 8 tones × 4 counts, 256,000 prompts, far more
 * than any cache of recent answers holds, and no part a tokenizer or an engine could take a short cut on
 * (such as an id). The same seed gives the same sequence, so that two servers measured in turn are sent the
 * same prompts.
 *
 * @example
 *   const next = promptSequence(1);
 *   next(); // 'Explain glaciers to a sailor in three calm sentences.'
 */
export function promptSequence(seed: number): () => string {
  const rng = new Rng(seed);
  return () => rng.pick(frames)(rng.pick(subjects), rng.pick(audiences), rng.pick(tones), rng.pick(counts));
}

/** The kinds of request the comparison of builds measures. */
export const requestKinds = ['models', 'chat', 'chat-stream', 'messages', 'messages-stream', 'responses', 'responses-stream'] as const;
export type RequestKind = (typeof requestKinds)[number];

export const kindLabels: Record<RequestKind, string> = {
  models: 'GET /v1/models',
  chat: 'POST /v1/chat/completions',
  'chat-stream': 'POST /v1/chat/completions, streamed',
  messages: 'POST /v1/messages (Anthropic)',
  'messages-stream': 'POST /v1/messages, streamed',
  responses: 'POST /v1/responses',
  'responses-stream': 'POST /v1/responses, streamed',
};

/** The body of each kind of request for one prompt: the same model, system prompt and question in each protocol. */
function bodyOf(kind: Exclude<RequestKind, 'models'>, prompt: string): Record<string, unknown> {
  const stream = kind.endsWith('-stream');
  if (kind.startsWith('chat')) {
    return { model: 'gpt-4o-mini', messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: prompt }], ...(stream && { stream }) };
  }
  if (kind.startsWith('messages')) {
    // Anthropic's protocol requires max_tokens; this one is far above any short answer.
    return { model: 'gpt-4o-mini', max_tokens: 1024, system: SYSTEM, messages: [{ role: 'user', content: prompt }], ...(stream && { stream }) };
  }
  // Not stored: a load of stored responses would measure the memory store filling up (each kept 30 days).
  return { model: 'gpt-4o-mini', instructions: SYSTEM, input: prompt, store: false, ...(stream && { stream }) };
}

const pathOf = (kind: Exclude<RequestKind, 'models'>) =>
  kind.startsWith('chat') ? '/v1/chat/completions' : kind.startsWith('messages') ? '/v1/messages' : '/v1/responses';

/**
 * One kind of request: its `body` is one fixed prompt (what is captured for the bare server, and the probe
 * of whether a build serves the kind at all), and under load each request gets the next prompt of
 * `promptSequence(seed)`.
 */
export function kindRequest(kind: RequestKind, key: string, seed: number): LoadSpec {
  if (kind === 'models') return modelsRequest(key);
  const path = pathOf(kind);
  const next = promptSequence(seed);
  return {
    method: 'POST',
    path,
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify(bodyOf(kind, QUESTION)),
    setupRequest: (request) => ({ ...request, body: JSON.stringify(bodyOf(kind, next())) }),
  };
}
