/**
 * Headless Chromium for the browser tests (the docs page, the dashboard): Debian's `chromium` driven by
 * playwright-core (scripts/lib/browser.ts). `npm test` installs it when it can (scripts/ensure-browser.ts),
 * so a missing browser fails the test loudly instead of skipping it. Pages may only talk to 127.0.0.1:
 * anything else is recorded and aborted.
 *
 * @example
 *   const browser = await launchBrowser();
 *   const { page, watch } = await openLocalPage(browser);
 *   await page.goto(`${server.baseUrl}/docs`);
 *   expect(watch.offsite).toEqual([]);
 *   await browser.close();
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { root } from '../../scripts/lib/paths.ts';

export { findChromium, launchBrowser } from '../../scripts/lib/browser.ts';

/** What a page did: every request, those that tried to leave 127.0.0.1, and every error it reported. */
export interface PageWatch {
  requests: string[];
  /** Requests to anywhere but 127.0.0.1 (each one aborted). */
  offsite: string[];
  /** `console.error` messages and failed loads, with where they came from. */
  consoleErrors: string[];
  /** Uncaught exceptions in the page. */
  pageErrors: string[];
}

function isLocal(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  if (protocol === 'data:' || protocol === 'blob:' || protocol === 'about:') return true;
  return hostname === '127.0.0.1';
}

/** A new page (its own context, so no state is shared between tests) that may only reach 127.0.0.1. */
export async function openLocalPage(
  browser: Browser,
  viewport = { width: 1400, height: 1000 },
): Promise<{ page: Page; watch: PageWatch }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  // Fail a step with Playwright's own message (which element, which state) before the test's timeout hides it.
  page.setDefaultTimeout(10_000);
  const watch: PageWatch = { requests: [], offsite: [], consoleErrors: [], pageErrors: [] };
  page.on('request', (request) => {
    watch.requests.push(request.url());
    if (!isLocal(request.url())) watch.offsite.push(request.url());
  });
  page.on('console', (message) => {
    if (message.type() === 'error') watch.consoleErrors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => watch.pageErrors.push(error.message));
  await context.route(
    (url) => !isLocal(url.href),
    (route) => route.abort('blockedbyclient'),
  );
  return { page, watch };
}

/** Where a test saves an artefact (gitignored `artifacts/`), e.g. a screenshot. */
export function artifactPath(name: string): string {
  const dir = join(root, 'artifacts');
  mkdirSync(dir, { recursive: true });
  return join(dir, name);
}
