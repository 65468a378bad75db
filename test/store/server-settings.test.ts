/** The server started as an operator starts it, with `GATEWAY_STORE=postgres`: what it says, and what it refuses. */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/paths.ts';
import { startGatewayProcess } from '../helpers/gateway-process.ts';
import { createDatabase, startPostgres, type RunningPostgres } from '../helpers/postgres.ts';

let database: RunningPostgres;
beforeAll(async () => {
  database = await startPostgres();
}, 60_000);
afterAll(async () => {
  await database?.stop();
});

const main = ['--import', 'tsx', 'src/server/main.ts', '--port', '0', '--no-demo-keys'];

describe('GATEWAY_STORE=postgres', () => {
  it('starts on the database, names it without its password, serves, and exits 0 on SIGTERM', async () => {
    const url = await createDatabase(database, 'settings');
    const gateway = await startGatewayProcess(process.execPath, main, {
      cwd: root,
      env: { ...process.env, GATEWAY_STORE: 'postgres', GATEWAY_DATABASE_URL: url, GATEWAY_DATABASE_POOL_SIZE: '4' },
    });
    expect(gateway.output()).toMatch(/Store: {10}PostgreSQL postgres:\/\/test:\*\*\*@127\.0\.0\.1:\d+\/settings \(up to 4 connections\)/);
    expect(gateway.output()).not.toContain('test:test@');
    expect((await fetch(`${gateway.baseUrl}/v1/models`)).status).toBe(200);
    expect(await gateway.stop()).toBe(0);
  });

  it('refuses to start, exit code 2, when the database cannot be reached or the URL is missing', () => {
    const unreachable = spawnSync(process.execPath, main, {
      cwd: root,
      env: { ...process.env, GATEWAY_STORE: 'postgres', GATEWAY_DATABASE_URL: 'postgres://gateway:secret@127.0.0.1:1/gateway' },
      encoding: 'utf8',
    });
    expect(unreachable.status).toBe(2);
    expect(unreachable.stderr).toMatch(/^gateway: PostgreSQL at postgres:\/\/gateway:\*\*\*@127\.0\.0\.1:1\/gateway: .*ECONNREFUSED/);
    const missing = spawnSync(process.execPath, main, { cwd: root, env: { ...process.env, GATEWAY_STORE: 'postgres', GATEWAY_DATABASE_URL: '' }, encoding: 'utf8' });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('GATEWAY_STORE=postgres needs GATEWAY_DATABASE_URL');
  });
});
