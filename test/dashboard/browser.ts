/**
 * Headless Chromium for the dashboard's browser test (Debian's `/usr/bin/chromium`, driven by
 * playwright-core). Screenshots go to `artifacts/` (gitignored), for a person to look at.
 *
 * @example
 *   const browser = await launchChromium();
 *   const page = await browser.newPage();
 *   await browser.close();
 */
import { mkdirSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export const artifactsDir = new URL('../../artifacts/', import.meta.url);

/** The path of a screenshot in `artifacts/`, creating the folder the first time. */
export function artifact(name: string): string {
  mkdirSync(artifactsDir, { recursive: true });
  return new URL(name, artifactsDir).pathname;
}
