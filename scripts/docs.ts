/**
 * Builds the Redoc pages: one self-contained HTML file per description in redocly.yaml (Redoc's script and
 * its logo inlined, so it works offline and from the file system). The reference server serves the
 * contract's page at /docs and the admin API's at /docs/admin; the vendor protocols' pages
 * (dist/docs/openai.html, dist/docs/anthropic.html) are for reading the suite's rules.
 *
 *   tsx scripts/docs.ts                  every description
 *   tsx scripts/docs.ts gateway admin    only these (what `npm start` serves, about 1.5 s a page)
 */
import { apiDescriptions } from './lib/apis.ts';
import { buildDocsPage } from './lib/docs-page.ts';

const wanted = process.argv.slice(2);
const apis = apiDescriptions();
const unknown = wanted.filter((name) => !apis.some((api) => api.name === name));
if (unknown.length > 0) {
  console.error(`No description named ${unknown.join(', ')} in redocly.yaml (${apis.map((api) => api.name).join(', ')})`);
  process.exit(2);
}
for (const api of apis.filter((a) => wanted.length === 0 || wanted.includes(a.name))) {
  buildDocsPage(api.docs, `${api.generated}/openapi.json`);
  console.log(`Docs written to ${api.docs}`);
}
