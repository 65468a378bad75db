/**
 * `npm test` on a fresh machine: its `pretest` (scripts/ensure-browser.ts) installs Chromium with apt-get when
 * it can, and otherwise stops with what to install. Tried with a stand-in `apt-get` on a PATH of its own.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/paths.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A folder to be the whole PATH, with the given executables (`$DIR` in a body is the folder). */
function pathWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-path-'));
  dirs.push(dir);
  for (const [name, body] of Object.entries(files)) {
    writeFileSync(join(dir, name), `#!/bin/sh\nDIR='${dir}'\n${body}\n`);
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

function pretest(env: Record<string, string>) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !['CHROMIUM_PATH', 'CHROME_PATH'].includes(name)));
  return spawnSync(process.execPath, ['--import', 'tsx', 'scripts/ensure-browser.ts'], { cwd: root, env: { ...clean, ...env }, encoding: 'utf8' });
}

describe.runIf(process.getuid?.() === 0)('npm test before the browser tests (as root)', () => {
  it('installs Debian\'s chromium with apt-get when there is no browser, and says so', () => {
    // The stand-in records its arguments and, asked to install, puts a "chromium" beside itself.
    const dir = pathWith({ 'apt-get': 'echo "$@" >> "$DIR/calls"; [ "$1" = install ] && printf "#!/bin/sh\\n" > "$DIR/chromium" && /bin/chmod +x "$DIR/chromium"; exit 0' });
    const result = pretest({ PATH: dir });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("installing Debian's chromium");
    expect(readFileSync(join(dir, 'calls'), 'utf8').trim().split('\n')).toEqual(['update -qq', 'install -y -qq chromium']);
    expect(existsSync(join(dir, 'chromium'))).toBe(true);
  });

  it('prints nothing when a browser is there', () => {
    const dir = pathWith({ chromium: 'exit 0', 'apt-get': 'exit 1' });
    const result = pretest({ PATH: dir });
    expect(result).toMatchObject({ status: 0, stdout: '', stderr: '' });
  });

  it('stops with what to install when it cannot install one, or when CHROMIUM_PATH names nothing', () => {
    const none = pretest({ PATH: pathWith({}) });
    expect(none.status).toBe(1);
    expect(none.stderr).toContain('apt-get install -y chromium');
    const named = pretest({ PATH: pathWith({ 'apt-get': 'exit 1' }), CHROMIUM_PATH: '/opt/no-such-chromium' });
    expect(named.status).toBe(1);
    expect(named.stderr).toContain('CHROMIUM_PATH names /opt/no-such-chromium, which does not exist');
  });
});
