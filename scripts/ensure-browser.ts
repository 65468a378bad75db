/**
 * Runs before `npm test` (`pretest`): the browser tests drive a real Chromium, which npm cannot install. When
 * none is found (scripts/lib/browser.ts) and this runs as root where apt-get is, it installs Debian's
 * `chromium`, saying so; otherwise it says what to install and stops before the tests start. With a browser
 * already there, it prints nothing.
 *
 *   tsx scripts/ensure-browser.ts
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { findChromium, missingBrowser } from './lib/browser.ts';

const usable = (path: string | undefined): path is string => path !== undefined && existsSync(path);
const named = process.env.CHROMIUM_PATH || process.env.CHROME_PATH;

if (!usable(findChromium()) && !named) {
  const hasApt = spawnSync('/bin/sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (process.getuid?.() === 0 && hasApt) {
    console.log("npm test: no Chromium for the browser tests; installing Debian's chromium (apt-get install -y chromium)…");
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: ['ignore', 'ignore', 'inherit'], env });
  }
}
const browser = findChromium();
if (!usable(browser)) {
  console.error(`npm test: ${missingBrowser(browser)}`);
  process.exit(1);
}
