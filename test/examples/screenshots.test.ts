/** `npm run screenshots` still takes the README's pictures from the running code (into a folder of its own here). */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pngSize } from '../client/png.ts';
import { root, run } from './run.ts';

const out = mkdtempSync(join(tmpdir(), 'gateway-screenshots-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('npm run screenshots', () => {
  it('writes the docs page, the dashboard and a painted picture', async () => {
    const result = await run('npm', ['run', '-s', 'screenshots', '--', '--out', out, '--port', '0'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    expect(pngSize(readFileSync(join(out, 'docs.png')))).toEqual({ width: 1280, height: 760 });
    expect(pngSize(readFileSync(join(out, 'dashboard.png')))).toEqual({ width: 1280, height: 760 });
    expect(pngSize(readFileSync(join(out, 'lighthouse.png')))).toEqual({ width: 512, height: 512 });
  }, 120_000);
});
