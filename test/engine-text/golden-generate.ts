/**
 * Writes `golden-answers.json`: the engine's answers to the golden requests, or the error it throws.
 * Run it only when answers are meant to change: `npx tsx test/engine-text/golden-generate.ts`.
 */
import { writeFileSync } from 'node:fs';
import { goldenAnswers } from './golden-answers.ts';

const file = new URL('./golden-answers.json', import.meta.url);
const answers = goldenAnswers();
writeFileSync(file, `${JSON.stringify(answers, null, 1)}\n`);
console.log(`wrote ${answers.chat.length} chat and ${answers.prompt.length} prompt answers to ${file.pathname}`);
