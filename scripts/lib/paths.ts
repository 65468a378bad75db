import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project's root folder, wherever the script is started from. */
export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Path of a command installed in node_modules/.bin (no npx: it may try the network). */
export function bin(name: string): string {
  return join(root, 'node_modules', '.bin', name);
}
