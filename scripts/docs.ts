/**
 * Builds the Redoc pages: one self-contained HTML file per description in redocly.yaml (Redoc's script and
 * its logo inlined, so it works offline and from the file system). The reference server serves the
 * contract's page at /docs and the admin API's at /docs/admin.
 *
 *   tsx scripts/docs.ts
 */
import { apiDescriptions } from './lib/apis.ts';
import { buildDocsPage } from './lib/docs-page.ts';

for (const api of apiDescriptions()) {
  buildDocsPage(api.docs, `${api.generated}/openapi.json`);
  console.log(`Docs written to ${api.docs}`);
}
