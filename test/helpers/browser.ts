/**
 * Headless Chromium for the browser tests (the docs page, the dashboard): Debian's `chromium` driven by
 * playwright-core. CI installs it (`.ci/run`), so a missing browser fails the test loudly instead of
 * skipping it. Pages may only talk to 127.0.0.1: anything else is recorded and aborted.
 *
 * @example
 *   const browser = await launchBrowser();
 *   const { page, watch } = await openLocalPage(browser);
 *   await page.goto(`${server.baseUrl}/docs`);
 *   expect(watch.offsite).toEqual([]);
 *   await browser.close();
 */
import { existsSync, mkdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { root } from '../../scripts/lib/paths.ts';

/** The names a Chromium or Chrome executable goes by on PATH. */
const BROWSER_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

/**
 * The browser to drive: `CHROMIUM_PATH` (or `CHROME_PATH`) when set, else the first Chromium or Chrome on
 * PATH; undefined when there is none.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const named = env.CHROMIUM_PATH || env.CHROME_PATH;
  if (named) return named;
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of BROWSER_NAMES) if (existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

const flags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchBrowser(): Promise<Browser> {
  const executablePath = findChromium();
  if (!executablePath || !existsSync(executablePath)) {
    throw new Error(
      `The browser tests need Chromium or Chrome, and ${executablePath ? `CHROMIUM_PATH names ${executablePath}, which does not exist` : `none is on PATH (${BROWSER_NAMES.join(', ')})`}. ` +
        'Install it (Debian: `apt-get install -y chromium`; `.ci/run` does) or set CHROMIUM_PATH to its executable.',
    );
  }
  return chromium.launch({ executablePath, args: flags });
}

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
