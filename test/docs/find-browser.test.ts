// The browser tests find Chromium as a newcomer's machine has it: CHROMIUM_PATH (or CHROME_PATH), else PATH.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findChromium } from '../helpers/browser.ts';

const dir = mkdtempSync(join(tmpdir(), 'gateway-browser-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('findChromium', () => {
  it('takes CHROMIUM_PATH, then CHROME_PATH, then the first browser on PATH', () => {
    const browser = join(dir, 'chromium-browser');
    writeFileSync(browser, '#!/bin/sh\n');
    chmodSync(browser, 0o755);
    expect(findChromium({ CHROMIUM_PATH: '/opt/chromium', PATH: dir })).toBe('/opt/chromium');
    expect(findChromium({ CHROME_PATH: '/opt/chrome', PATH: dir })).toBe('/opt/chrome');
    expect(findChromium({ PATH: ['/nowhere', dir].join(delimiter) })).toBe(browser);
    expect(findChromium({ PATH: '/nowhere' })).toBeUndefined();
  });
});
