/**
 * Runs `scripts/mock.ts` the way a person does (`npm run mock`, or the script under node) on a free port,
 * and waits for its usage text, which it prints once Prism listens.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import { freePort } from '../../scripts/lib/free-port.ts';
import { root } from '../../scripts/lib/paths.ts';

export interface RunningMock {
  baseUrl: string;
  child: ChildProcess;
  /** Everything printed so far, stdout and stderr. */
  output(): string;
  /** Settles with the exit code (or 128 + signal number, as a shell reports it) once the command ends. */
  exited: Promise<number | null>;
  /** Sends a signal to the whole command (npm, the script and Prism), as Ctrl-C in a terminal does. */
  interrupt(signal?: NodeJS.Signals): void;
}

const ready = 'Ctrl-C stops the mock.';

export async function runMock(how: 'npm' | 'node', env: Record<string, string> = {}): Promise<RunningMock> {
  const port = await freePort();
  const [command, args] =
    how === 'npm' ? ['npm', ['run', '-s', 'mock']] : [process.execPath, ['--import', 'tsx', 'scripts/mock.ts']];
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, MOCK_PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so that one signal reaches every process of the command, like a terminal's.
    detached: true,
  });
  let text = '';
  child.stdout!.on('data', (chunk) => (text += chunk));
  child.stderr!.on('data', (chunk) => (text += chunk));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 + constants.signals[signal] : null))),
  );
  const running: RunningMock = {
    baseUrl: `http://127.0.0.1:${port}`,
    child,
    output: () => text,
    exited,
    interrupt(signal = 'SIGINT') {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // Already gone.
      }
    },
  };
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      if (text.includes(ready)) {
        child.stdout!.off('data', check);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    void exited.then((code) => reject(new Error(`The mock exited (${code}) before it was ready:\n${text}`)));
  });
  return running;
}

/** Stops a mock that a test left running, and waits for it. */
export async function stopMock(mock: RunningMock | undefined): Promise<void> {
  if (!mock || mock.child.exitCode !== null || mock.child.signalCode !== null) return;
  mock.interrupt('SIGTERM');
  await mock.exited;
}
