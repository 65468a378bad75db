/**
 * The gateway's command line (cli.ts, config.ts): every setting is a flag and an environment variable, the
 * flag winning; `--help` lists them all and the README's table is the same list; `keys create` makes a key
 * the server then accepts (the installed package's way to its first key, decision D26), and refuses what it
 * cannot do with exit code 2 and the reason.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/paths.ts';
import { help } from '../../src/server/cli.ts';
import { readConfig, settings } from '../../src/server/config.ts';
import { startServer } from '../helpers/server.ts';
import { call } from './http.ts';

const dir = mkdtempSync(join(tmpdir(), 'gateway-command-line-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `npm start -- args…` without the build: the repository's command line, from its sources. */
function gateway(args: string[], env: Record<string, string> = {}): Promise<{ status: number; stdout: string; stderr: string }> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('GATEWAY_')));
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/server/main.ts', ...args], { cwd: root, env: { ...inherited, ...env }, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** Each of these starts node and tsx, and loads the server's modules, several times over. */
const SLOW = 120_000;

describe('settings', () => {
  it('are each a flag and an environment variable, the flag winning', () => {
    const byFlag = readConfig(
      [
        ...['--database-pool-size', '7', '--headers-timeout-ms', '1001', '--request-timeout-ms', '2002', '--idle-timeout-ms', '3003'],
        ...['--keep-alive-timeout-ms', '4004', '--shutdown-grace-ms', '5005', '--text-workers', '3', '--image-workers', '2'],
      ],
      { GATEWAY_DATABASE_POOL_SIZE: '9', GATEWAY_HEADERS_TIMEOUT_MS: '9999', GATEWAY_TEXT_WORKERS: '9' },
    );
    expect(byFlag).toMatchObject({
      databasePoolSize: 7,
      timeouts: { headersMs: 1001, requestMs: 2002, idleMs: 3003, keepAliveMs: 4004 },
      shutdownGraceMs: 5005,
      workers: { text: { workers: 3 }, images: { workers: 2 } },
    });
    const byVariable = readConfig([], { GATEWAY_DATABASE_POOL_SIZE: '9', GATEWAY_KEEP_ALIVE_TIMEOUT_MS: '8008', GATEWAY_IMAGE_WORKERS: '5', PORT: '9000' });
    expect(byVariable).toMatchObject({ databasePoolSize: 9, timeouts: { keepAliveMs: 8008 }, workers: { images: { workers: 5 } }, port: 9000 });
    expect(readConfig(['--port', '9001'], { PORT: '9000' }).port).toBe(9001);
    expect(() => readConfig(['--text-workers', '0'], {})).toThrow("GATEWAY_TEXT_WORKERS (--text-workers) must be an integer from 1 to 256, not '0'.");
  });

  it("are all in --help and in the README's table, and nothing else is", () => {
    const text = help({ program: 'ai-gateway', demoKeys: 'asked' });
    for (const s of settings) expect(text).toMatch(new RegExp(`^  --${s.flag}\\b.*\\(${s.env}\\)$`, 'm'));
    expect(text).toMatch(/--demo-keys, --no-demo-keys {3}\(GATEWAY_DEMO_KEYS\)\n.*default: off$/m);
    expect(help({ program: 'npm start --', demoKeys: 'loopback' })).toMatch(/\(GATEWAY_DEMO_KEYS\)\n.*default: on for a loopback host only$/m);

    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('| Setting | Variable | Flag | Default |'), readme.indexOf('Flags go after `--`'));
    const cells = (column: number) => table.split('\n').slice(2).filter(Boolean).flatMap((row) => [...(row.split(' | ')[column] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1]));
    expect(cells(1).sort()).toEqual(settings.map((s) => s.env).sort());
    expect(cells(2).sort()).toEqual(settings.flatMap((s) => (s.value === undefined ? [`--${s.flag}`, `--no-${s.flag}`] : [`--${s.flag}`])).sort());
  });

  it('the installed package has no demo keys unless asked for; npm start has them on a loopback host', () => {
    expect(readConfig([], {}, 'asked').demoKeys).toBe(false);
    expect(readConfig(['--demo-keys'], {}, 'asked')).toMatchObject({ demoKeys: true, demoKeysExposed: false });
    expect(readConfig([], { GATEWAY_DEMO_KEYS: 'on' }, 'asked').demoKeys).toBe(true);
    expect(readConfig([], {}, 'loopback').demoKeys).toBe(true);
  });
});

describe('the command line', () => {
  it('answers --help and --version, and refuses an unknown command or a misplaced option with exit code 2', async () => {
    const [shown, version, unknown, misplaced, bogus] = await Promise.all([gateway(['--help']), gateway(['--version']), gateway(['start']), gateway(['--tier', 'pro']), gateway(['--bogus'])]);
    expect(shown.status).toBe(0);
    expect(shown.stdout).toMatch(/^Usage: npm start -- \[settings\]/);
    expect(version.stdout).toMatch(/^ai-gateway-contract \d+\.\d+\.\d+\n$/);
    expect(unknown).toMatchObject({ status: 2, stderr: "gateway: no command 'start'. `npm start -- --help` lists the commands and settings.\n" });
    expect(misplaced).toMatchObject({ status: 2, stderr: expect.stringContaining('--tier and --name belong to `keys create`') });
    expect(bogus).toMatchObject({ status: 2, stderr: expect.stringContaining("Unknown option '--bogus'") });
  }, SLOW);

  it('keys create makes a key the server accepts, printed once on standard output alone', async () => {
    const db = join(dir, 'keys.sqlite');
    const made = await gateway(['keys', 'create', '--tier', 'pro', '--name', 'Storefront staging'], { GATEWAY_DB: db });
    expect(made.status, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/^sk-[0-9A-Za-z]{40}\n$/);
    expect(made.stderr).toMatch(new RegExp(`^Made key key_[0-9a-f]{16} "Storefront staging" \\(tier pro\\) in SQLite file ${db}\\. It is shown this once`));
    const key = made.stdout.trim();
    const unnamed = await gateway(['keys', 'create', '--tier', 'starter', '--db', db]);
    expect(unnamed.stderr).toContain('"Made on the command line" (tier starter)');

    const server = await startServer({ store: db, demoKeys: false, adminToken: 'an-admin-token-of-some-length' });
    try {
      const answer = await call(server.baseUrl, 'POST', '/v1/chat/completions', { headers: { 'x-api-key': key }, body: { model: 'gpt-4.1', messages: [{ role: 'user', content: 'Hi' }] } });
      expect(answer.status).toBe(200);
      const listed = await call(server.baseUrl, 'GET', '/dashboard/api/keys', { headers: { 'x-admin-token': 'an-admin-token-of-some-length' } });
      expect((listed.body as { keys: Array<{ name: string; tier: string }> }).keys.map((k) => [k.name, k.tier]).sort()).toEqual([
        ['Made on the command line', 'starter'],
        ['Storefront staging', 'pro'],
      ]);
    } finally {
      await server.close();
    }
  }, SLOW);

  it('keys create refuses a key it cannot make, with exit code 2 and the reason', async () => {
    const db = join(dir, 'refused.sqlite');
    const [untiered, gold, unnamed, memory] = await Promise.all([
      gateway(['keys', 'create', '--db', db]),
      gateway(['keys', 'create', '--tier', 'gold', '--db', db]),
      gateway(['keys', 'create', '--tier', 'pro', '--name', ' ', '--db', db]),
      gateway(['keys', 'create', '--tier', 'pro', '--store', 'memory']),
    ]);
    expect(untiered).toMatchObject({ status: 2, stderr: 'keys: give the tier of the key: --tier starter, economy, pro or ultimate.\n' });
    expect(gold).toMatchObject({ status: 2, stderr: expect.stringMatching(/^keys: \/tier must be one of "starter", "economy", "pro", "ultimate"/) });
    expect(unnamed).toMatchObject({ status: 2, stderr: expect.stringMatching(/^keys: \/name /) });
    expect(memory).toMatchObject({ status: 2, stderr: expect.stringContaining('the memory store lasts only as long as the server') });
  }, SLOW);
});
