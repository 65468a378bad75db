/**
 * Builds the Redoc page of the contract: one self-contained HTML file (Redoc's script inlined, so it works
 * offline and from the file system), which the reference server serves at /docs.
 *
 *   tsx scripts/docs.ts [--output dist/docs/index.html]
 */
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { bin, root } from './lib/paths.ts';

const { values } = parseArgs({ options: { output: { type: 'string', default: 'dist/docs/index.html' } } });

execFileSync(bin('redocly'), ['build-docs', 'generated/openapi.json', '--inlineBundle', '--output', values.output!], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
});
console.log(`Docs written to ${values.output}`);
