/**
 * What an engine's worker thread loads. Each worker is a V8 isolate of its own, so every module it imports
 * costs memory once per worker: the compiled contract (its document added to ajv) cost about 17 MB in each
 * of them, for a few numbers. The engines read those from the bare document (`contract/gateway-document.ts`).
 */
import { build } from 'esbuild';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/paths.ts';

/** The project's modules a worker's task module loads, as paths relative to the root. */
async function modulesOf(entry: string): Promise<string[]> {
  const result = await build({ entryPoints: [join(root, entry)], bundle: true, packages: 'external', platform: 'node', format: 'esm', write: false, metafile: true, logLevel: 'silent' });
  return Object.keys(result.metafile.inputs);
}

describe('the engines’ worker threads load no compiled contract', () => {
  it.each(['src/server/workers/text-tasks.ts', 'src/server/workers/image-tasks.ts'])('%s', async (entry) => {
    const modules = await modulesOf(entry);
    expect(modules).toContain('src/contract/gateway-document.ts');
    expect(modules).not.toContain('src/contract/contract.ts');
    expect(modules).not.toContain('src/contract/gateway.ts');
  });
});
