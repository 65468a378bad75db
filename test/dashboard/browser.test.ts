// The whole path a person takes, in headless Chromium: open the dashboard, sign in with the admin token,
// Settings → API Keys → Create New Key (with the keyboard), read and copy the key, call the API with it
// (200), revoke it in the page, call again (401). Screenshots: artifacts/dashboard-*.png.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import { call } from '../server/http.ts';
import { ADMIN_TOKEN, chatBody } from './admin.ts';
import { artifactPath as artifact, launchBrowser as launchChromium } from '../helpers/browser.ts';

let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  server = await startServer({ adminToken: ADMIN_TOKEN });
  browser = await launchChromium();
  context = await browser.newContext({ locale: 'en-GB', timezoneId: 'UTC', viewport: { width: 1280, height: 800 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
  page = await context.newPage();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const focused = () =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return { tag: el?.tagName.toLowerCase(), text: el?.textContent?.trim(), id: el?.id, outline: el ? getComputedStyle(el).outlineStyle : '' };
  });

describe('the dashboard in a browser', () => {
  it('signs in, creates a key, and revokes it, as a user would', async () => {
    // 1. Without a session the page answers 401, and its body is the sign-in form.
    const first = await page.goto(`${server.baseUrl}/dashboard`);
    expect(first!.status()).toBe(401);
    await expect.poll(() => page.getByRole('heading', { name: 'Sign in' }).isVisible()).toBe(true);
    await page.screenshot({ path: artifact('dashboard-1-sign-in.png') });

    // 2. Sign in with the keyboard: the token field has the focus; a wrong token first.
    expect((await focused()).id).toBe('admin-token');
    await page.keyboard.type('not-the-token');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('That is not the admin token.');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(ADMIN_TOKEN);
    await Promise.all([page.waitForEvent('load'), page.keyboard.press('Enter')]);
    await expect.poll(() => page.getByRole('heading', { name: 'Overview', level: 1 }).isVisible()).toBe(true);
    expect((await context.cookies()).find((c) => c.name === 'gateway_admin')).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/dashboard' });
    await page.screenshot({ path: artifact('dashboard-2-overview.png') });

    // 3. Settings → API Keys.
    const nav = page.getByRole('navigation', { name: 'Dashboard' });
    await nav.getByRole('link', { name: 'Settings', exact: true }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Settings', level: 1 }).isVisible()).toBe(true);
    await page.getByRole('main').getByRole('link', { name: /API Keys/ }).click();
    const keysHeading = page.getByRole('heading', { name: 'API Keys', level: 1 });
    await expect.poll(() => keysHeading.isVisible()).toBe(true);
    expect(await nav.getByRole('link', { name: 'API Keys' }).getAttribute('aria-current')).toBe('page');
    const rows = page.locator('#keys-body tr');
    await expect.poll(() => rows.count()).toBe(4); // the demo keys
    await page.screenshot({ path: artifact('dashboard-3-api-keys.png'), fullPage: true });

    // 4. Create New Key, by keyboard alone: the heading has the focus, Tab reaches the button.
    expect((await focused()).id).toBe('keys-title');
    await page.keyboard.press('Tab');
    expect(await focused()).toMatchObject({ tag: 'button', text: 'Create New Key', outline: 'solid' });
    await page.keyboard.press('Enter');
    expect((await focused()).id).toBe('key-name');
    await page.keyboard.type('Browser test key');
    await page.keyboard.press('Tab'); // into the tier radios, on Starter
    await page.keyboard.press('ArrowRight'); // Economy
    await page.keyboard.press('ArrowRight'); // Pro
    expect(await page.getByRole('radio', { name: /Pro/ }).isChecked()).toBe(true);
    await page.screenshot({ path: artifact('dashboard-4-create-form.png') });
    await page.keyboard.press('Tab'); // Cancel
    await page.keyboard.press('Tab'); // Create key
    expect(await focused()).toMatchObject({ tag: 'button', text: 'Create key' });
    await page.keyboard.press('Enter');

    // 5. The key, once, with a copy button.
    const keyField = page.getByLabel(/Key for Browser test key/);
    await expect.poll(() => keyField.inputValue()).toMatch(/^sk-[0-9A-Za-z]{40}$/);
    const key = await keyField.inputValue();
    expect(await page.getByRole('dialog', { name: 'Your new key' }).textContent()).toContain('This is the only time the whole key is shown');
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.locator('#copy-status').textContent()).toBe('Copied to the clipboard.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await page.screenshot({ path: artifact('dashboard-5-new-key.png') });

    // 6. The key works at once.
    const ok = await call(server.baseUrl, 'POST', '/v1/chat/completions', { key, body: chatBody });
    expect(ok.status).toBe(200);

    // 7. Done: the key leaves the page for good; the list shows its prefix only.
    await page.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => rows.count()).toBe(5);
    const row = rows.filter({ hasText: 'Browser test key' });
    expect(await row.textContent()).toContain(`${key.slice(0, 10)}…`);
    expect(await row.textContent()).toContain('Active');
    expect(await page.content()).not.toContain(key);
    expect(await keyField.inputValue()).toBe('');
    expect((await focused()).text).toBe('Create New Key');
    await page.screenshot({ path: artifact('dashboard-6-key-listed.png'), fullPage: true });

    // 8. Revoke it in the page; Cancel has the focus first, so Enter alone cannot revoke by accident.
    await row.getByRole('button', { name: /^Revoke Browser test key/ }).click();
    const confirm = page.getByRole('dialog', { name: /Revoke “Browser test key”/ });
    await expect.poll(() => confirm.isVisible()).toBe(true);
    expect((await focused()).text).toBe('Cancel');
    await page.screenshot({ path: artifact('dashboard-7-revoke-confirm.png') });
    await confirm.getByRole('button', { name: 'Revoke key' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('revoked');
    await expect.poll(() => row.textContent()).toContain('Revoked');
    expect(await row.getByRole('button').count()).toBe(0);
    await page.screenshot({ path: artifact('dashboard-8-revoked.png'), fullPage: true });

    // 9. The key is refused at once.
    const refused = await call(server.baseUrl, 'POST', '/v1/chat/completions', { key, body: chatBody });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: 'Invalid API Key.' });

    // 10. Sign out: back to the sign-in form, and the old cookie no longer opens the page.
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Sign out' }).click()]);
    await expect.poll(() => page.getByRole('heading', { name: 'Sign in' }).isVisible()).toBe(true);
  });
});
