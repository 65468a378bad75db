/**
 * Builds the gateway as a package of its own, `ai-gateway`, for operators who run it rather than develop it,
 * and packs it. Prints the path of the `.tgz` as its last line.
 *
 *   npm run pack:gateway
 *
 * What it holds, laid out as in the repository so that the server finds its files from the package's root as
 * it does here (src/package-root.ts):
 *
 *   dist/bin.js                 the `ai-gateway` command: node with `npm start`'s flags and environment
 *                               (package.json's `config`), running dist/server/ai-gateway.js
 *   dist/server/                the server compiled and bundled by esbuild (src/server/package/bin.ts and what it
 *                               imports; the engines' worker thread is an entry of its own beside it)
 *   dist/docs/                  the docs pages it serves at /docs and /docs/admin, rendered here, never at start
 *   generated/                  the bundled contract and admin API descriptions it validates against and serves
 *   src/server/**               the server's files that are not code: the dashboard's page, script and styles, the
 *                               catalogue file's schema
 *   examples/                   the example catalogues and a systemd unit
 *
 * Its dependencies are the packages left out of the bundle: native ones (SQLite, sharp's libvips), the
 * PostgreSQL driver, and the tokenizer whose vocabulary file the text engine reads. Nothing is built when it
 * starts.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';
import { apiDescriptions } from './lib/apis.ts';
import { buildDocsPage } from './lib/docs-page.ts';
import { root } from './lib/paths.ts';

/** The packages the bundle leaves to node_modules: native code, the database driver, and files read at run time. */
const EXTERNAL = ['better-sqlite3', 'sharp', 'pg', 'gpt-tokenizer'];
/** The descriptions the server serves (and `npm start` renders): the contract and the admin API. */
const SERVED = ['gateway', 'admin'];

const out = join(root, 'dist', 'gateway-package');
const project = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  version: string;
  license: string;
  engines: Record<string, string>;
  dependencies: Record<string, string>;
  config: { serverNodeFlags: string; serverEnv: string };
};

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const bundled = await build({
  // The pool starts its workers from `engine-worker.js` beside the module that holds it (src/lib/module-worker.ts):
  // entries and chunks share one folder.
  entryPoints: { 'ai-gateway': join(root, 'src/server/package/bin.ts'), 'engine-worker': join(root, 'src/server/workers/engine-worker.ts') },
  outdir: join(out, 'dist', 'server'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: EXTERNAL,
  // Fastify, pino, ajv and the others are CommonJS; in an ES module bundle their require() calls need Node's own.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  metafile: true,
  logLevel: 'warning',
});
const imported = new Set(
  Object.values(bundled.metafile.outputs).flatMap((o) => o.imports.filter((i) => i.external && !i.path.startsWith('node:') && !isBuiltin(i.path)).map((i) => i.path.split('/')[0]!)),
);
const unlisted = [...imported].filter((name) => !EXTERNAL.includes(name));
if (unlisted.length > 0) throw new Error(`the bundle imports ${unlisted.join(', ')}, which the package does not depend on`);

// The command runs node as `npm start` does (README: the heap's cap, pretenuring off, one malloc arena).
writeFileSync(
  join(out, 'dist', 'bin.js'),
  `#!/usr/bin/env -S ${project.config.serverEnv} node ${project.config.serverNodeFlags}\nimport './server/ai-gateway.js';\n`,
  { mode: 0o755 },
);

for (const api of apiDescriptions().filter((a) => SERVED.includes(a.name))) {
  mkdirSync(join(out, api.generated), { recursive: true });
  cpSync(join(root, api.generated, 'openapi.json'), join(out, api.generated, 'openapi.json'));
  buildDocsPage(join(out, api.docs), join(api.generated, 'openapi.json'));
}

// Every file of the server that is not code (it reads them from the package's root); the package's own README apart.
for (const file of readdirSync(join(root, 'src/server'), { recursive: true, encoding: 'utf8' })) {
  const path = join('src/server', file);
  if (/\.ts$/.test(file) || file.startsWith('package/') || !statSync(join(root, path)).isFile()) continue;
  cpSync(join(root, path), join(out, path));
}
cpSync(join(root, 'examples/catalogues'), join(out, 'examples/catalogues'), { recursive: true });
cpSync(join(root, 'examples/systemd'), join(out, 'examples/systemd'), { recursive: true });
cpSync(join(root, 'src/server/package/README.md'), join(out, 'README.md'));
cpSync(join(root, 'LICENSE'), join(out, 'LICENSE'));

const manifest = {
  name: 'ai-gateway',
  version: project.version,
  description: 'The AI Model Gateway: OpenAI- and Anthropic-compatible APIs, keys, tiers and quotas, in front of hosted models or its built-in engine.',
  license: project.license,
  type: 'module',
  engines: project.engines,
  bin: { 'ai-gateway': 'dist/bin.js' },
  files: ['dist', 'generated', 'src', 'examples', 'README.md', 'LICENSE'],
  dependencies: Object.fromEntries(EXTERNAL.map((name) => [name, project.dependencies[name]])),
};
writeFileSync(join(out, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
const tgz = execFileSync('npm', ['pack', '--silent', '--pack-destination', join(root, 'dist')], { cwd: out, encoding: 'utf8' }).trim().split('\n').at(-1)!;
console.log(join(root, 'dist', tgz));

