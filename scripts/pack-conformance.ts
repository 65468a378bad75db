/**
 * Builds the conformance suite as a package of its own, `ai-gateway-conformance`, and packs it: compiled
 * JavaScript (src/conformance and what it imports, bundled by esbuild, so it has no dependencies to
 * install: no Fastify, sharp or SQLite), the bundled contract it checks against, a README and the licence.
 * Prints the path of the `.tgz` as its last line.
 *
 *   npm run pack:conformance
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { root } from './lib/paths.ts';

const out = join(root, 'dist', 'conformance-package');
const project = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string; license: string; engines: Record<string, string> };

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'generated'), { recursive: true });
await build({
  // The proxy's judge runs in a thread of its own: its module is an entry beside the others (dist/judge-worker.js).
  entryPoints: { cli: join(root, 'src/conformance/cli.ts'), index: join(root, 'src/conformance/index.ts'), 'judge-worker': join(root, 'src/conformance/proxy/judge-worker.ts') },
  outdir: join(out, 'dist'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  // ajv-formats and ajv are CommonJS; in an ES module bundle their require() calls need Node's own.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
});
writeFileSync(join(out, 'dist', 'bin.js'), "#!/usr/bin/env node\nimport { main } from './cli.js';\n\nprocess.exitCode = await main(process.argv.slice(2));\n", { mode: 0o755 });
// The descriptions it checks against: the gateway's contract, and OpenAI's and Anthropic's protocols.
copyFileSync(join(root, 'generated/openapi.json'), join(out, 'generated/openapi.json'));
for (const vendor of ['openai', 'anthropic']) {
  mkdirSync(join(out, 'generated', vendor), { recursive: true });
  copyFileSync(join(root, `generated/${vendor}/openapi.json`), join(out, `generated/${vendor}/openapi.json`));
}
copyFileSync(join(root, 'src/conformance/package/README.md'), join(out, 'README.md'));
copyFileSync(join(root, 'LICENSE'), join(out, 'LICENSE'));
const manifest = {
  name: 'ai-gateway-conformance',
  version: project.version,
  description: 'Checks a server against the AI Model Gateway API contract, or against OpenAI\'s or Anthropic\'s protocol.',
  license: project.license,
  type: 'module',
  engines: project.engines,
  bin: { 'gateway-conformance': 'dist/bin.js' },
  exports: { '.': './dist/index.js', './package.json': './package.json' },
  files: ['dist', 'generated', 'README.md', 'LICENSE'],
  dependencies: {},
};
writeFileSync(join(out, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
const tgz = execFileSync('npm', ['pack', '--silent', '--pack-destination', join(root, 'dist')], { cwd: out, encoding: 'utf8' }).trim().split('\n').at(-1)!;
console.log(join(root, 'dist', tgz));
