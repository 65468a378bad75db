/**
 * What the server offers beside the API: `/` (links), `/openapi.json` (the bundled contract) and `/docs`
 * (the Redoc page built by `npm run docs`).
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { specUrl } from '../contract/index.ts';
import { packageFile } from '../package-root.ts';
import { demoKeys } from './keys.ts';

const docsUrl = packageFile('dist/docs/index.html');

export function registerMetaRoutes(app: FastifyInstance, options: { demoKeys: boolean }): void {
  const specJson = readFileSync(specUrl, 'utf8');
  let docs: string | undefined;

  app.get('/openapi.json', async (_request, reply) => reply.type('application/json').send(specJson));

  app.get('/docs', async (_request, reply) => {
    try {
      docs ??= readFileSync(docsUrl, 'utf8');
    } catch {
      return reply.code(503).send({ error: 'The docs page is not built yet: run `npm run docs`, then reload.' });
    }
    return reply.type('text/html; charset=utf-8').send(docs);
  });

  app.get('/', async (_request, reply) => reply.type('text/html; charset=utf-8').send(homePage(options.demoKeys)));
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
</ul>
${keys}
<p>Send a key as <code>x-api-key</code>, or as <code>Authorization: Bearer</code> on chat completions.</p>
</body></html>`;
}
