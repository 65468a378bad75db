// The dashboard's Upstreams page in headless Chromium (decision D40): a gateway whose gpt-4o-mini falls back
// from an upstream that is down to one that serves; after a request, the page shows the first cooling down
// (until when, its last failure) and the second healthy, with what each was sent and served — what the admin
// API says, in a table. Screenshot: artifacts/dashboard-upstreams.png.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtInEntries } from '../../src/server/catalogue/catalogue.ts';
import { artifactPath, launchBrowser } from '../helpers/browser.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { call } from '../server/http.ts';
import { deadOrigin, okJson, protocolEvents, startFaultyUpstream, type FaultyUpstream } from '../upstream-gateway/faulty-upstream.ts';
import { ADMIN_TOKEN, chatBody } from './admin.ts';

let upstream: FaultyUpstream;
let server: TestServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  upstream = await startFaultyUpstream();
  upstream.answer = okJson(protocolEvents['openai-chat'].whole('Hello'));
  const dead = await deadOrigin();
  const catalogue = builtInEntries().map((model) =>
    model.id === 'gpt-4o-mini'
      ? {
          ...model,
          upstreams: [
            { name: 'primary', protocol: 'openai-chat' as const, base_url: `${dead}/v1`, model: 'gpt-4o-mini' },
            { name: 'standby', protocol: 'openai-chat' as const, base_url: `${upstream.origin}/v1`, model: 'gpt-4o-mini' },
          ],
          routing: { cooldown: { failures: 1, duration_ms: 600_000 } },
        }
      : model,
  );
  server = await startServer({ adminToken: ADMIN_TOKEN, catalogue });
  browser = await launchBrowser();
  page = await (await browser.newContext({ locale: 'en-GB', timezoneId: 'UTC', viewport: { width: 1280, height: 800 } })).newPage();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await upstream?.close();
});

describe('the Upstreams page', () => {
  it("shows each routed model's upstreams: one cooling down after its failure, one healthy that served", async () => {
    const answer = await call(server.baseUrl, 'POST', '/v1/chat/completions', { key: 'sk-demo-ultimate', body: chatBody });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers.get('x-gateway-upstream')).toBe('standby');

    await page.goto(`${server.baseUrl}/dashboard`);
    await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
    await Promise.all([page.waitForEvent('load'), page.keyboard.press('Enter')]);
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Upstreams' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Upstreams', level: 1 }).isVisible()).toBe(true);

    const rows = page.locator('#upstreams-body tr');
    await expect.poll(() => rows.count()).toBe(2);
    const [primary, standby] = [await rows.nth(0).innerText(), await rows.nth(1).innerText()];
    expect(primary).toContain('gpt-4o-mini');
    expect(primary).toContain('fallback');
    expect(primary).toMatch(/primary\s+openai-chat · http:\/\/127\.0\.0\.1:\d+/);
    expect(primary).toMatch(/Cooling down until \d+ \w+ \d{4}, \d\d:\d\d/);
    expect(primary).toMatch(/cannot be reached \(ECONNREFUSED\)/);
    expect(primary).toMatch(/0 \/ 1$/);
    expect(standby).toContain('Healthy');
    expect(standby).toContain('None');
    expect(standby).toMatch(/1 \/ 1$/);
    expect(await page.locator('#upstreams-empty').isHidden()).toBe(true);
    await page.screenshot({ path: artifactPath('dashboard-upstreams.png'), fullPage: true });
  });
});
