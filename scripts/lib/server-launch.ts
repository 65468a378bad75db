/**
 * How `npm start` runs the reference server: the node flags (`config.serverNodeFlags` in package.json) and
 * the environment (`config.serverEnv`, `NAME=value` pairs) it gives it. The benchmark and the reliability
 * run start their servers the same way, so that their figures are those of the server as operators run it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './paths.ts';

export interface ServerLaunch {
  nodeFlags: string[];
  env: Record<string, string>;
}

export function serverLaunch(): ServerLaunch {
  const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { config?: { serverNodeFlags?: string; serverEnv?: string } };
  const words = (text = '') => text.split(' ').filter(Boolean);
  const env = Object.fromEntries(words(packageJson.config?.serverEnv).map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
  return { nodeFlags: words(packageJson.config?.serverNodeFlags), env };
}
