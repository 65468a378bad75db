/**
 * Compiles the reference server (and the modules it uses) to plain JavaScript in `dist/node/`, for
 * `npm start` and the benchmark. Running TypeScript through tsx costs a loader thread with its own V8
 * heap (about 33 MB of RSS) and start-up time; the compiled files run on node alone. Tests and scripts
 * keep running the sources under tsx.
 *
 * Every source file is compiled on its own (esbuild, one file per module, same folders under
 * `dist/node/`), with `./x.ts` imports rewritten to `./x.js` and packages left to node_modules.
 *
 *   tsx scripts/build-server.ts
 */
import { readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { root } from './lib/paths.ts';

export const serverBuildDir = join(root, 'dist', 'node');

/** The entries `dist/node` holds: every module under `src/`, and the benchmark's server entry. */
function sources(): string[] {
  const files = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => join(root, 'src', file));
  return [...files, join(root, 'scripts', 'bench', 'reference-entry.ts')];
}

/** Relative imports stay imports (each file is its own entry), with `.ts` turned into `.js`. */
const relativeImportsAsJs: Plugin = {
  name: 'relative-imports-as-js',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => (args.kind === 'entry-point' ? undefined : { path: args.path.replace(/\.ts$/, '.js'), external: true }));
  },
};

/**
 * Writes the compiled modules to `outDir` (which must be inside the package, so that the modules find
 * its root; see src/package-root.ts).
 *
 * @example
 *   await buildServer(); // then: node dist/node/src/server/main.js
 */
export async function buildServer(outDir = serverBuildDir): Promise<void> {
  rmSync(outDir, { recursive: true, force: true });
  await build({
    entryPoints: sources(),
    outdir: outDir,
    outbase: root,
    bundle: true, // only so that the plugin sees every import; all of them are external
    packages: 'external',
    plugins: [relativeImportsAsJs],
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
}

if (process.argv[1] && relative(process.argv[1], new URL(import.meta.url).pathname) === '') {
  await buildServer();
}
