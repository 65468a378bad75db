/**
 * Runs an example or a code sample as its reader would, in a child process, and gives back what it printed.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../../', import.meta.url));

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `command args…` with `env` added to a copy of this process's environment (minus any GATEWAY_* of the caller). */
export function run(command: string, args: string[], options: { env?: Record<string, string>; cwd?: string } = {}): Promise<Run> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('GATEWAY_')));
  return new Promise((resolve) => {
    execFile(command, args, { cwd: options.cwd ?? root, env: { ...env, ...options.env }, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs a TypeScript or JavaScript file with tsx, as `npx tsx file` would. */
export function runScript(file: string, args: string[] = [], options: { env?: Record<string, string>; cwd?: string } = {}): Promise<Run> {
  return run(process.execPath, ['--import', 'tsx', file, ...args], options);
}
