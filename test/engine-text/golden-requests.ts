/**
 * About two hundred varied engine requests whose answers are frozen in `golden-answers.json`. The
 * engine may be made faster, never different: `golden.test.ts` asserts it still gives exactly these
 * answers. Regenerate the fixture (only when an answer is meant to change) with
 * `npx tsx test/engine-text/golden-generate.ts`.
 */
import type { ChatRequest } from '../../src/server/domain/chat.ts';
import type { PromptRequest } from '../../src/server/domain/chat.ts';
import { assistantCalls, chat, PARALLEL_TOOL_RESULTS, QUESTIONS, STOCKS, system, tool, toolResult, user, WEATHER } from './requests.ts';

const TIME = tool('get_time', 'Current local time in a timezone.', {
  type: 'object',
  properties: { timezone: { type: 'string' } },
  required: ['timezone'],
});
const NO_PARAMS = tool('get_random_joke', 'Tells a random joke.');
const PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';

/** Questions beyond QUESTIONS: odd spacing, names, numbers, multi-byte text, special-token markers. */
const EXTRA = [
  'how to bake sourdough bread at home',
  'Could you please summarize the plot of Hamlet for me?',
  'hey there, how are you?',
  'Tell me a joke about programmers',
  'Give me 5 ideas for a birthday party in Paris',
  'What are the differences between TCP and UDP?',
  'Write a poem about autumn leaves and the Ödön river café',
  'Hmm, so why do cats purr when they are happy?',
  '   multiple   spaces\n\nand\tnewlines here   ',
  'Ticket [4711]: Write three sentences about tides and the moon.',
  'Was ist die Hauptstadt von Deutschland? Ich möchte es wissen.',
  '東京の天気はどうですか？',
  'Emoji test 🎉🎉 with 👩‍👩‍👧 family and 🇫🇷 flag',
  'The text <|endoftext|> is plain here, not a control token.',
  'What is 3.14 times 2, and is -7 less than 12.5?',
  'Ada Lovelace and Alan Turing were pioneers. Who came first?',
  'Recommend some books about the Roman Empire',
  'Can you fix my code? It throws a TypeError in JavaScript.',
  'Thanks, that helped!',
  '',
];

function chatRequests(): ChatRequest[] {
  const out: ChatRequest[] = [];
  const questions = [...QUESTIONS, ...EXTRA];
  for (const [i, question] of questions.entries()) {
    out.push(chat([user(question)]));
    out.push(chat([user(question)], { seed: i + 1, temperature: 0.7 }));
    out.push(chat([user(question)], { temperature: 0 }));
    out.push(chat([system('You are a concise assistant.'), user(question)], { seed: 3 }));
    // Cuts at small limits, including inside multi-byte characters.
    out.push(chat([user(question)], { seed: 2, maxTokens: 1 + (i % 7) }));
    out.push(chat([user(question)], { seed: 9, maxTokens: 20 + i }));
  }
  out.push(chat([user('Weather in Zürich?')], { seed: 1, maxTokens: 3, model: 'gpt-4o' }));
  for (let limit = 1; limit <= 12; limit++) out.push(chat([user('Tell me about the history of 日本 and its cities 🎌')], { seed: 4, maxTokens: limit }));

  // Images, names, an empty conversation, assistant turns.
  out.push(chat([user([{ type: 'text', text: 'What is in this picture?' }, { type: 'image_url', image_url: { url: PIXEL } }])]));
  out.push(chat([user([{ type: 'image_url', image_url: { url: PIXEL } }])], { seed: 8 }));
  out.push(chat([user([{ type: 'text', text: 'Two parts' }, { type: 'text', text: 'of one message' }])]));
  out.push(chat([{ role: 'user', content: 'Hi', name: 'ann' }]));
  out.push(chat([]));
  out.push(chat([system('Be brief.'), user('What is the capital of France?'), { role: 'assistant', content: 'Paris.' }, user('Tell me about Norway')]));
  out.push(chat([system('Only a system message here.')]));

  // Tool calls: auto, required, named, none, parallel or not, cut by max_tokens.
  const toolQuestions = [
    'What is the weather in Paris?',
    "What's the weather like in New York today?",
    'What is the latest price of the ticker AAPL?',
    'What is the weather in Oslo and the local time there?',
    'Tell me a story about dragons',
    'Hello',
  ];
  for (const [i, question] of toolQuestions.entries()) {
    out.push(chat([user(question)], { tools: [STOCKS, WEATHER, TIME] }));
    out.push(chat([user(question)], { tools: [STOCKS, WEATHER, TIME], parallelToolCalls: false, seed: i }));
    out.push(chat([user(question)], { tools: [WEATHER], toolChoice: 'required', seed: 5, temperature: 1.2 }));
    out.push(chat([user(question)], { tools: [WEATHER, STOCKS], toolChoice: 'none' }));
    out.push(chat([user(question)], { tools: [WEATHER, STOCKS], toolChoice: { type: 'function', function: { name: 'get_stock_price' } } }));
    out.push(chat([user(question)], { tools: [NO_PARAMS] }));
    for (const limit of [1, 4, 9, 15]) out.push(chat([user(question)], { tools: [STOCKS, WEATHER, TIME], toolChoice: 'required', maxTokens: limit }));
  }

  // Conversations that end with tool results.
  const history = [user('What is the weather in Paris?'), assistantCalls([{ id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' }])];
  const results = [
    '{"temperature":21,"condition":"sunny","wind_kmh":12}',
    'Light rain, 14°C in Paris',
    '["flood","wind"]',
    '{}',
    '',
    '42',
    '{"nested":{"a":[1,2,3]},"longText":"' + 'word '.repeat(60) + '","flag":true,"none":null,"list":[]}',
  ];
  for (const [i, result] of results.entries()) {
    out.push(chat([...history, toolResult('call_a', result)], { tools: [WEATHER], seed: i }));
    out.push(chat([...history, toolResult('call_a', result)], { maxTokens: 6 + i }));
  }
  out.push(chat(PARALLEL_TOOL_RESULTS));
  // Tool choices that cannot be honoured: the stored answer is the error.
  out.push(chat([user('Hi')], { toolChoice: 'required' }));
  out.push(chat([user('Hi')], { tools: [WEATHER], toolChoice: { type: 'function', function: { name: 'nope' } } }));
  return out;
}

function promptRequests(): PromptRequest[] {
  const prompts = ['Once upon a time', 'The history of Rome', 'Write a haiku about the sea.', 'The sea ', 'Explain gravity:', '', 'Zürich is 🎌', 'It was over.'];
  const out: PromptRequest[] = [];
  for (const [i, prompt] of prompts.entries()) {
    out.push({ model: 'gpt-4o-mini', prompt });
    out.push({ model: 'gpt-4o-mini', prompt, seed: i, temperature: 1.1 });
    out.push({ model: 'gpt-4o-mini', prompt, maxTokens: 1 + i });
  }
  return out;
}

export const GOLDEN_CHAT_REQUESTS = chatRequests();
export const GOLDEN_PROMPT_REQUESTS = promptRequests();
