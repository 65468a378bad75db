/**
 * `npm run screenshots`: the pictures of the README's first run, taken from the real thing rather than drawn:
 * the docs page at an operation, the dashboard's API keys, and a picture the gateway painted. Starts the
 * reference server (memory store) on port 8080 as `npm start` does, so that the docs show the address a reader
 * will see (`--port 0` for any free port), drives the system's Chromium (scripts/lib/browser.ts), and
 * writes docs/images/{docs,dashboard,lighthouse}.png (or into the folder given with --out).
 *
 *   npm run screenshots
 *   npm run screenshots -- --out /tmp/shots --port 0
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/server/app.ts';
import { launchBrowser } from './lib/browser.ts';
import { buildDocsPage } from './lib/docs-page.ts';
import { root } from './lib/paths.ts';

const { values } = parseArgs({ options: { out: { type: 'string', default: join(root, 'docs', 'images') }, port: { type: 'string', default: '8080' } } });
const out = resolve(values.out!);
mkdirSync(out, { recursive: true });

const ADMIN_TOKEN = 'screenshots-admin-token-0123';
buildDocsPage('dist/docs/index.html');
const app = await buildApp({ store: 'memory', adminToken: ADMIN_TOKEN, logger: false });
await app.listen({ host: '127.0.0.1', port: Number(values.port) });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
const browser = await launchBrowser();
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 760 }, locale: 'en-GB', timezoneId: 'UTC' });
  const page = await context.newPage();

  // The docs page, at the chat completions operation.
  await page.goto(`${base}/docs`);
  await page.getByText('Ctrl+K').waitFor();
  await page.locator('[data-component-name="Menu/Menu"]').getByRole('link', { name: 'Chat', exact: true }).click();
  await page.locator('[data-component-name="Menu/Menu"]').getByRole('link', { name: /^Create a chat completion/ }).click();
  await page.locator('[id$="/createchatcompletion"] h2').first().waitFor();
  await page.screenshot({ path: join(out, 'docs.png') });

  // The dashboard's API keys, with two keys made through the admin API as an operator would.
  for (const [name, tier] of [['Storefront staging', 'starter'], ['Mobile app', 'pro']]) {
    await fetch(`${base}/dashboard/api/keys`, { method: 'POST', headers: { 'x-admin-token': ADMIN_TOKEN, 'content-type': 'application/json' }, body: JSON.stringify({ name, tier }) });
  }
  await page.goto(`${base}/dashboard`);
  await page.locator('#admin-token').fill(ADMIN_TOKEN);
  await Promise.all([page.waitForEvent('load'), page.keyboard.press('Enter')]);
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'API Keys' }).click();
  await page.getByRole('heading', { name: 'API Keys', level: 1 }).waitFor();
  await page.locator('#keys-body tr').nth(5).waitFor();
  await page.screenshot({ path: join(out, 'dashboard.png') });

  // A picture, as the first run's `examples/images.ts` makes it.
  const res = await fetch(`${base}/v1/generation/image?model=image-gen`, {
    method: 'POST',
    headers: { 'x-api-key': 'sk-demo-pro', 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'A lighthouse on a cliff at dawn', size: '512x512' }),
  });
  if (res.status !== 200) throw new Error(`the image request answered ${res.status}: ${await res.text()}`);
  const { data } = (await res.json()) as { data: Array<{ b64_json: string }> };
  writeFileSync(join(out, 'lighthouse.png'), Buffer.from(data[0]!.b64_json, 'base64'));
  console.log(`Screenshots written to ${out}: docs.png, dashboard.png, lighthouse.png`);
} finally {
  await browser.close();
  await app.close();
}
