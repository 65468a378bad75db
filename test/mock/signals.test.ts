/**
 * `npm run mock` stops cleanly: Ctrl-C ends npm, the script and Prism; SIGTERM sent to the script alone
 * reaches Prism and the script exits with Prism's status; a bad MOCK_PORT is refused before anything starts.
 */
import { spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/paths.ts';
import { runMock, stopMock, type RunningMock } from './run-mock.ts';

let running: RunningMock | undefined;

afterEach(async () => {
  await stopMock(running);
  running = undefined;
});

/** Whether something still accepts connections on the mock's port. */
function listening(baseUrl: string): Promise<boolean> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('stopping the mock', () => {
  it('Ctrl-C stops npm, the script and Prism', async () => {
    running = await runMock('npm');
    expect(await listening(running.baseUrl)).toBe(true);
    running.interrupt('SIGINT');
    await running.exited;
    expect(await listening(running.baseUrl)).toBe(false);
  });

  it('SIGTERM to npm alone (`kill` on its process) stops the script and Prism: the script is exec-ed, no shell holds the signal', async () => {
    running = await runMock('npm');
    process.kill(running.child.pid!, 'SIGTERM');
    await running.exited;
    // npm has forwarded the signal; the port closes once Prism has stopped.
    for (let i = 0; i < 100 && (await listening(running.baseUrl)); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await listening(running.baseUrl)).toBe(false);
  });

  it('SIGTERM to the script alone is forwarded to Prism, and the script exits with its status', async () => {
    running = await runMock('node');
    process.kill(running.child.pid!, 'SIGTERM');
    // Prism ends on the forwarded SIGTERM; the script reports it as a shell would: 128 + 15.
    expect(await running.exited).toBe(143);
    expect(await listening(running.baseUrl)).toBe(false);
  });

  it('refuses a MOCK_PORT that is not a port, before starting Prism', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/mock.ts'], {
      cwd: root,
      env: { ...process.env, MOCK_PORT: 'eighty' },
      encoding: 'utf8',
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('MOCK_PORT');
    expect(result.stdout).not.toContain('Prism');
  });
});
