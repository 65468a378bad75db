/** `npm run migrate`, run as an operator would: the store named by the server's settings, brought up to date. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/paths.ts';
import { createDatabase, startPostgres, type RunningPostgres } from '../helpers/postgres.ts';

let database: RunningPostgres;
const dir = mkdtempSync(join(tmpdir(), 'gateway-migrate-'));
beforeAll(async () => {
  database = await startPostgres();
}, 60_000);
afterAll(async () => {
  await database?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function migrate(env: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync('npm', ['run', '-s', 'migrate'], { cwd: root, env: { ...process.env, ...env }, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout.trim(), stderr: result.stderr.trim() };
}

describe('npm run migrate', () => {
  it('applies the missing migrations of a PostgreSQL database once, and says so without its password', async () => {
    const url = await createDatabase(database, 'migrate_cli');
    const first = migrate({ GATEWAY_STORE: 'postgres', GATEWAY_DATABASE_URL: url });
    expect(first).toMatchObject({ status: 0, stdout: expect.stringMatching(/^PostgreSQL postgres:\/\/test:\*\*\*@127\.0\.0\.1:\d+\/migrate_cli: applied migrations 1, 2; schema at version 2\.$/) });
    const second = migrate({ GATEWAY_STORE: 'postgres', GATEWAY_DATABASE_URL: url });
    expect(second.stdout).toMatch(/schema already at version 2\.$/);
  });

  it('brings a SQLite file up to date', () => {
    const file = join(dir, 'gateway.sqlite');
    expect(migrate({ GATEWAY_STORE: 'sqlite', GATEWAY_DB: file }).stdout).toBe(`SQLite file ${file}: applied migrations 1, 2; schema at version 2.`);
  });

  it('exits 2 with the reason when the settings are incomplete or the database cannot be reached', () => {
    const missing = migrate({ GATEWAY_STORE: 'postgres', GATEWAY_DATABASE_URL: '' });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('GATEWAY_STORE=postgres needs GATEWAY_DATABASE_URL');
    const unreachable = migrate({ GATEWAY_STORE: 'postgres', GATEWAY_DATABASE_URL: 'postgres://gateway:secret@127.0.0.1:1/gateway' });
    expect(unreachable.status).toBe(2);
    expect(unreachable.stderr).toMatch(/^migrate: PostgreSQL at postgres:\/\/gateway:\*\*\*@127\.0\.0\.1:1\/gateway: .*ECONNREFUSED/);
  });
});
