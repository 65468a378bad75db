import { randomFillSync } from 'node:crypto';

// Random bytes drawn 4 KB at a time: one call into the crypto library per 341 ids instead of one per id
// (an id per chat completion made `randomBytes` a visible cost under load).
const pool = Buffer.alloc(4096);
let offset = pool.length;

/**
 * A unique id with a prefix and 24 hex characters, as OpenAI's (`chatcmpl-…`, `cmpl-…`).
 *
 * @example
 *   newId('chatcmpl-') // 'chatcmpl-3b9e7a1c5d2f4e8a9b0c6d1e'
 */
export function newId(prefix: string): string {
  if (offset + 12 > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const id = pool.toString('hex', offset, offset + 12);
  offset += 12;
  return `${prefix}${id}`;
}
