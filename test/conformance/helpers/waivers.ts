/**
 * The waivers the reference's decisions table documents (D30): the deviations from OpenAI's protocol this
 * gateway makes on purpose, read from the table itself so that the test and the docs cannot disagree.
 */
import { readFileSync } from 'node:fs';

export function documentedWaivers(): string[] {
  const table = readFileSync(new URL('../../../openapi/docs/introduction.md', import.meta.url), 'utf8');
  const row = table.split('\n').find((line) => line.startsWith('| D30 |'));
  if (!row) throw new Error('the decisions table has no D30 row');
  return [...row.matchAll(/`(openai[/:][^`\s]+)`/g)].map((m) => m[1]!);
}
