/**
 * The gateway as an operator installs it: `npm run pack:gateway` builds the package, the .tgz installs with
 * `--omit=dev` in an empty folder (from the registry or npm's cache: SQLite's native module is compiled there
 * when no prebuilt one can be fetched, which takes minutes), and `ai-gateway` serves from that folder with a
 * catalogue whose chat models are on an upstream (a reference server). The conformance suite's core profile
 * passes through it with keys made by `ai-gateway keys create`, on the SQLite file and on PostgreSQL (after
 * `ai-gateway migrate`, with the settings as environment variables); the demo keys stay off.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatReport, runConformance } from '../../src/conformance/index.ts';
import { settings } from '../../src/server/config.ts';
import { root } from '../../scripts/lib/paths.ts';
import { startGatewayProcess, type GatewayProcess } from '../helpers/gateway-process.ts';
import { createDatabase, startPostgres, type RunningPostgres } from '../helpers/postgres.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { baseUrlFor, upstreamCatalogue, UPSTREAM_KEY } from '../helpers/upstream-gateway.ts';

const TIERS = ['starter', 'economy', 'pro', 'ultimate'] as const;
/** Whether this machine can check a systemd unit. */
const systemdAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;
/** Packing, and installing with a native module to compile on a busy machine. */
const INSTALL_TIMEOUT_MS = 20 * 60_000;

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

let folder: string;
let tgz: string;
let upstream: TestServer;
let database: RunningPostgres;

/** `command args…` in the operator's folder, with this environment only (nothing of the caller's GATEWAY_*). */
function sh(command: string, args: string[], env: Record<string, string> = {}, timeout = 120_000): Promise<Ran> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('GATEWAY_')));
  return new Promise((resolve) => {
    execFile(command, args, { cwd: folder, env: { ...inherited, ...env }, timeout, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** The installed command, as `npx ai-gateway` finds it. */
const gateway = (args: string[], env?: Record<string, string>) => sh(join(folder, 'node_modules', '.bin', 'ai-gateway'), args, env);

/** Makes a key of each tier with `ai-gateway keys create`, as an operator makes the first ones. */
async function makeKeys(args: string[], env?: Record<string, string>): Promise<Record<(typeof TIERS)[number], string>> {
  const keys: Partial<Record<(typeof TIERS)[number], string>> = {};
  for (const tier of TIERS) {
    const made = await gateway(['keys', 'create', '--tier', tier, '--name', `Conformance ${tier}`, ...args], env);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stderr).toMatch(new RegExp(`^Made key key_\\w+ "Conformance ${tier}" \\(tier ${tier}\\) in `));
    keys[tier] = made.stdout.trim();
    expect(keys[tier]).toMatch(/^sk-[0-9A-Za-z]{40}$/);
  }
  return keys as Record<(typeof TIERS)[number], string>;
}

/** Starts `ai-gateway` on 127.0.0.1 and a free port, and learns the port from what it prints. */
function startGateway(args: string[], env: Record<string, string>): Promise<GatewayProcess> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('GATEWAY_')));
  return startGatewayProcess(join(folder, 'node_modules', '.bin', 'ai-gateway'), ['--host', '127.0.0.1', '--port', '0', ...args], { cwd: folder, env: { ...inherited, ...env } });
}

/** The catalogue file an operator writes: the built-in listing, its chat models answered by the upstream. */
async function writeCatalogue(): Promise<string> {
  const path = join(folder, 'catalogue.json');
  await writeFile(path, JSON.stringify({ models: upstreamCatalogue('openai-chat', baseUrlFor('openai-chat', upstream.baseUrl)) }, null, 2));
  return path;
}

/** The suite's core profile through the installed gateway: every check passes. */
async function conforms(baseUrl: string, keys: Record<string, string>): Promise<void> {
  const report = await runConformance({ baseUrl, profile: 'core', keys });
  const failed = report.results.filter((r) => r.outcome === 'failed').map((r) => r.id);
  expect(failed, formatReport(report)).toEqual([]);
  expect(report.results.filter((r) => r.outcome === 'passed').length).toBeGreaterThan(50);
}

/** What the upstream answered: the gateway's chat went there. */
async function upstreamAnswered(baseUrl: string, key: string): Promise<void> {
  const answer = await fetch(`${baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello!' }] }),
  });
  expect(answer.status).toBe(200);
}

beforeAll(async () => {
  const packed = await new Promise<Ran>((resolve) =>
    execFile('npm', ['run', '-s', 'pack:gateway'], { cwd: root, timeout: 300_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? 1 : 0, stdout, stderr }),
    ),
  );
  expect(packed.code, packed.stderr).toBe(0);
  tgz = packed.stdout.trim().split('\n').at(-1)!;
  expect(tgz).toMatch(/ai-gateway-\d+\.\d+\.\d+\.tgz$/);
  folder = await mkdtemp(join(tmpdir(), 'ai-gateway-operator-'));
  await writeFile(join(folder, 'package.json'), JSON.stringify({ name: 'operators-gateway', private: true }));
  const installed = await sh('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline', tgz], {}, INSTALL_TIMEOUT_MS);
  expect(installed.code, installed.stderr).toBe(0);
  upstream = await startServer({ store: 'memory' });
  database = await startPostgres();
}, INSTALL_TIMEOUT_MS + 120_000);

afterAll(async () => {
  await upstream?.close();
  await database?.stop();
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('the ai-gateway package, installed with --omit=dev in an empty folder', () => {
  it('depends only on what the server needs at run time, and carries what it serves', async () => {
    const manifest = JSON.parse(await readFile(join(folder, 'node_modules/ai-gateway/package.json'), 'utf8'));
    expect(manifest).toMatchObject({ name: 'ai-gateway', license: 'MIT', bin: { 'ai-gateway': 'dist/bin.js' } });
    expect(Object.keys(manifest.dependencies).sort()).toEqual(['better-sqlite3', 'gpt-tokenizer', 'pg', 'sharp']);
    const installed = await readdir(join(folder, 'node_modules'));
    for (const tool of ['typescript', 'tsx', 'esbuild', 'vitest', '@redocly', 'fastify', 'ajv', 'undici']) expect(installed).not.toContain(tool);
    // The docs pages were rendered when it was packed: nothing is built at start.
    for (const page of ['dist/docs/index.html', 'dist/docs/admin.html']) {
      expect(await readFile(join(folder, 'node_modules/ai-gateway', page), 'utf8')).toMatch(/^<!DOCTYPE html>/i);
    }
  });

  it('lists every setting with --help, as a flag and as an environment variable', async () => {
    const help = await gateway(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: ai-gateway \[settings\]/);
    expect(help.stdout).toContain('ai-gateway migrate');
    expect(help.stdout).toContain('ai-gateway keys create --tier T');
    for (const setting of settings) {
      expect(help.stdout).toContain(`--${setting.flag}`);
      expect(help.stdout).toContain(`(${setting.env})`);
    }
    expect(help.stdout).toMatch(/--demo-keys, --no-demo-keys {3}\(GATEWAY_DEMO_KEYS\)\n.*default: off/);
    // As the README runs it: npx finds the installed command.
    expect((await sh('npx', ['ai-gateway', '--version'])).stdout.trim()).toMatch(/^ai-gateway \d+\.\d+\.\d+$/);
    const wrong = await gateway(['serve-forever']);
    expect(wrong).toMatchObject({ code: 2, stderr: expect.stringContaining("no command 'serve-forever'") });
  });

  it.skipIf(!systemdAnalyze)('carries a systemd unit that systemd accepts, pointed at the installed command', async () => {
    const unit = await readFile(join(folder, 'node_modules/ai-gateway/examples/systemd/ai-gateway.service'), 'utf8');
    expect(unit).toContain('ExecStart=/opt/ai-gateway/node_modules/.bin/ai-gateway\n');
    // As installed under /opt/ai-gateway: here, the test's folder.
    const path = join(folder, 'ai-gateway.service');
    await writeFile(path, unit.replaceAll('/opt/ai-gateway', folder));
    const verified = await sh('systemd-analyze', ['verify', path]);
    expect(verified, verified.stderr).toMatchObject({ code: 0, stderr: '' });
    // Every setting it names is one the gateway reads.
    for (const name of new Set(unit.match(/\b(?:GATEWAY_[A-Z_]+|HOST|PORT)(?==)/g))) expect(settings.map((s) => s.env)).toContain(name);
  });

  it('serves from a SQLite file with keys made by `keys create`, an upstream behind its chat models, and passes the core profile', async () => {
    const db = join(folder, 'data', 'gateway.sqlite');
    const keys = await makeKeys(['--db', db]);
    const server = await startGateway(['--db', db, '--catalogue', await writeCatalogue()], { UPSTREAM_KEY });
    try {
      expect(server.output()).toContain(`Store:          SQLite file ${db}`);
      expect(server.output()).toMatch(/Models: {9}\d+ from .*catalogue\.json; \d+ on the built-in engine; upstream openai-chat http:\/\/127\.0\.0\.1:\d+\/v1/);
      expect(server.output()).toContain('Demo keys:      off (--demo-keys or GATEWAY_DEMO_KEYS=on to have them');
      // No key everyone knows opens it.
      const demo = await fetch(`${server.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'x-api-key': 'sk-demo-ultimate', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello!' }] }),
      });
      expect(demo.status).toBe(401);
      // The docs page and the dashboard, from the package's own files.
      expect((await fetch(`${server.baseUrl}/docs`)).status).toBe(200);
      expect((await fetch(`${server.baseUrl}/dashboard`)).status).toBe(401);
      await upstreamAnswered(server.baseUrl, keys.starter);
      await conforms(server.baseUrl, keys);
    } finally {
      expect(await server.stop(), server.output()).toBe(0);
    }
  }, 300_000);

  it('migrates a PostgreSQL database, makes its keys, serves from it with the settings as variables, and passes the core profile', async () => {
    const env = { GATEWAY_STORE: 'postgres', GATEWAY_DATABASE_URL: await createDatabase(database, 'gateway_package'), UPSTREAM_KEY };
    const migrated = await gateway(['migrate'], env);
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stdout).toMatch(/^PostgreSQL postgres:\/\/test:\*\*\*@127\.0\.0\.1:\d+\/gateway_package: applied migrations 1, 2; schema at version 2\.$/m);
    const keys = await makeKeys([], env);
    const server = await startGateway([], { ...env, GATEWAY_CATALOGUE: await writeCatalogue(), GATEWAY_DATABASE_POOL_SIZE: '4' });
    try {
      expect(server.output()).toMatch(/Store: {10}PostgreSQL postgres:\/\/test:\*\*\*@127\.0\.0\.1:\d+\/gateway_package \(up to 4 connections\)/);
      await upstreamAnswered(server.baseUrl, keys.pro);
      await conforms(server.baseUrl, keys);
    } finally {
      expect(await server.stop(), server.output()).toBe(0);
    }
  }, 300_000);
});
