/**
 * Builds the Redoc page of the contract: one self-contained HTML file (Redoc's script and its logo inlined,
 * so it works offline and from the file system), which the reference server serves at /docs.
 *
 *   tsx scripts/docs.ts [--output dist/docs/index.html]
 */
import { parseArgs } from 'node:util';
import { buildDocsPage } from './lib/docs-page.ts';

const { values } = parseArgs({ options: { output: { type: 'string', default: 'dist/docs/index.html' } } });
buildDocsPage(values.output!);
console.log(`Docs written to ${values.output}`);
