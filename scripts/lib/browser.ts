/**
 * The headless Chromium that the browser tests and the README's screenshots drive: Debian's `chromium` (or any
 * Chromium or Chrome) through playwright-core, which downloads no browser of its own.
 */
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/** The names a Chromium or Chrome executable goes by on PATH. */
export const BROWSER_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

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

/** What to do when there is no browser, in one sentence. */
export function missingBrowser(named: string | undefined): string {
  return (
    `The browser tests need Chromium or Chrome, and ${named ? `CHROMIUM_PATH names ${named}, which does not exist` : `none is on PATH (${BROWSER_NAMES.join(', ')})`}. ` +
    'Install it (Debian: `apt-get install -y chromium`; `npm test` does so by itself when it runs as root on Debian) or set CHROMIUM_PATH to its executable.'
  );
}

// Without the background-networking flags, Chromium reaches out to Google's services at every start.
const flags = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export async function launchBrowser(): Promise<Browser> {
  const executablePath = findChromium();
  if (!executablePath || !existsSync(executablePath)) throw new Error(missingBrowser(executablePath));
  return chromium.launch({ executablePath, args: flags });
}
