/**
 * Safe defaults (decision D26): demo keys only on a loopback host unless asked for (and a warning when they
 * are exposed), no admin token shorter than 16 characters (the server refuses to start, saying why), and wrong
 * admin tokens throttled per client address.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/paths.ts';
import { buildApp } from '../../src/server/app.ts';
import { readConfig } from '../../src/server/config.ts';
import { startServer } from '../helpers/server.ts';
import { call } from './http.ts';

describe('demo keys', () => {
  it('are on by default for a loopback host only', () => {
    expect(readConfig([], {}).demoKeys).toBe(true);
    expect(readConfig(['--host', '::1'], {}).demoKeys).toBe(true);
    expect(readConfig([], { HOST: 'localhost' }).demoKeys).toBe(true);
    expect(readConfig(['--host', '0.0.0.0'], {}).demoKeys).toBe(false);
    expect(readConfig(['--host', '192.168.1.20'], {}).demoKeys).toBe(false);
  });

  it('are on beyond loopback only when asked for, and then flagged for a warning', () => {
    const asked = readConfig(['--host', '0.0.0.0'], { GATEWAY_DEMO_KEYS: 'on' });
    expect(asked).toMatchObject({ demoKeys: true, demoKeysExposed: true });
    expect(readConfig(['--host', '0.0.0.0', '--demo-keys'], {})).toMatchObject({ demoKeys: true, demoKeysExposed: true });
    expect(readConfig([], { GATEWAY_DEMO_KEYS: 'off' }).demoKeys).toBe(false);
    expect(() => readConfig([], { GATEWAY_DEMO_KEYS: 'maybe' })).toThrow(/'on' or 'off'/);
  });
});

describe('the admin token', () => {
  it('must have at least 16 characters', async () => {
    await expect(buildApp({ store: 'memory', logger: false, adminToken: 'hunter2' })).rejects.toThrow(/7 characters long; it must have at least 16/);
  });

  it('too short, stops the server at start with exit code 2 and the reason', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/main.ts', '--port', '0', '--store', 'memory'], {
      cwd: root,
      env: { ...process.env, GATEWAY_ADMIN_TOKEN: 'short' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('at least 16');
    expect(run.stdout).not.toContain('listening');
  });
});

describe('failed sign-ins', () => {
  it('are throttled per address after 10 failures, with either credential, and the 429 says when to retry', async () => {
    let clock = new Date('2026-11-24T10:00:00Z');
    const server = await startServer({ adminToken: 'the-right-admin-token', now: () => clock });
    try {
      const signIn = (token: string) => call(server.baseUrl, 'POST', '/dashboard/api/session', { body: { token } });
      for (let i = 0; i < 9; i++) expect((await signIn(`guess-${i}`)).status).toBe(401);
      const tenth = await call(server.baseUrl, 'GET', '/dashboard/api/keys', { headers: { 'x-admin-token': 'guess-header' } });
      expect(tenth.status).toBe(401);
      const blocked = await signIn('the-right-admin-token');
      expect(blocked.status).toBe(429);
      expect(blocked.headers.get('retry-after')).toBe('600');
      expect(blocked.body).toEqual({ error: 'Too many wrong admin tokens from this address; try again in 600 seconds.' });
      const header = await call(server.baseUrl, 'GET', '/dashboard/api/keys', { headers: { 'x-admin-token': 'the-right-admin-token' } });
      expect(header.status).toBe(429);
      // The window passes: the right token works again, and clears the count.
      clock = new Date(clock.getTime() + 10 * 60_000);
      expect((await signIn('the-right-admin-token')).status).toBe(204);
      expect((await signIn('one-more-guess')).status).toBe(401);
    } finally {
      await server.close();
    }
  });
});
