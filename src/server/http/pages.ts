/**
 * What the server offers beside the operations: `/` (links), the bundled descriptions (`/openapi.json`, the
 * contract; `/dashboard/api/openapi.json`, the admin API) and their Redoc pages (`/docs`, `/docs/admin`),
 * built by `npm run docs`; descriptions and pages are sent naming the address they are served from as their
 * first server (page-origin.ts).
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Contract } from '../../contract/index.ts';
import { packageFile } from '../../package-root.ts';
import { demoKeys } from '../domain/keys.ts';
import { errorBody } from './error-handler.ts';
import { requestOrigin, servedByOrigin, type ServedPage } from './page-origin.ts';
import { pagePolicy, sendPage } from './security-headers.ts';

export interface DescribedApi {
  contract: Contract;
  /** Where its description and its docs page are served. */
  specPath: string;
  docsPath: string;
  /** The Redoc page `npm run docs` writes, relative to the package. */
  docsFile: string;
}

export function registerPages(app: FastifyInstance, apis: readonly DescribedApi[], options: { demoKeys: boolean }): void {
  for (const api of apis) {
    const address = firstServer(api.contract);
    const specAt = servedByOrigin(readFileSync(api.contract.url, 'utf8'), address, (json) => json);
    let docsAt: ((origin: string | undefined) => ServedPage) | undefined;
    app.get(api.specPath, async (request, reply) => reply.type('application/json').send(specAt(requestOrigin(request.protocol, request.host))));
    app.get(api.docsPath, async (request, reply) => {
      try {
        docsAt ??= servedByOrigin(readFileSync(packageFile(api.docsFile), 'utf8'), address, (html) => ({
          html,
          // Redoc's page runs its own inline scripts, styles its components inline and searches in a blob: worker.
          policy: pagePolicy(html, { inlineStyles: true, blobWorkers: true }),
        }));
      } catch {
        return reply.code(503).send(errorBody('The docs page is not built yet: run `npm run docs`, then reload.'));
      }
      const docs = docsAt(requestOrigin(request.protocol, request.host));
      return sendPage(reply, docs.html, docs.policy);
    });
  }
  const home = homePage(options.demoKeys);
  const homePolicy = pagePolicy(home, { inlineStyles: true });
  app.get('/', async (_request, reply) => sendPage(reply, home, homePolicy));
}

/** The address the description and its page name for this server: its first server's URL. */
function firstServer(contract: Contract): string | undefined {
  return (contract.spec.servers as Array<{ url?: string }> | undefined)?.[0]?.url;
}

function homePage(withDemoKeys: boolean): string {
  const keys = withDemoKeys
    ? `<h2>Demo keys</h2><ul>${demoKeys.map((k) => `<li><code>${k.key}</code> (${k.tier})</li>`).join('')}</ul>`
    : '<p>Demo keys are switched off; create a key in the dashboard.</p>';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>AI Model Gateway (reference implementation)</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:42rem;margin:3rem auto;padding:0 1rem;color:#1d2330}
a{color:#2857c5}code{background:#f1f3f7;padding:.1rem .3rem;border-radius:3px}</style></head>
<body><h1>AI Model Gateway</h1>
<p>The reference implementation of the gateway contract.</p>
<ul>
<li><a href="/docs">API documentation</a> (Redoc)</li>
<li><a href="/openapi.json">OpenAPI description</a> (bundled, JSON)</li>
<li><a href="/dashboard">Dashboard</a>: Settings → API Keys → Create New Key</li>
<li><a href="/docs/admin">Admin API documentation</a>: the dashboard's operations, for scripts</li>
</ul>
${keys}
<p>Send a key as <code>x-api-key</code>, or as <code>Authorization: Bearer</code> on chat completions.</p>
</body></html>`;
}
