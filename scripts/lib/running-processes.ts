/**
 * What the processes running on this machine were started with: their arguments and, where the system shows
 * it, their working folder. `npm run build:server` reads it to tell which of its builds a running server may
 * still load files from (scripts/build-server.ts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';

export interface RunningProcess {
  pid: number;
  /** The command line, as the process was started (paths as given, maybe relative). */
  args: string[];
  /** Its working folder (a real path), when the system shows it to us. */
  cwd?: string;
}

/**
 * Every running process: from /proc on Linux, from `ps` elsewhere (arguments only: `ps` splits them at
 * spaces, and shows no working folder). Undefined when neither is available, so that a caller that must be
 * sure holds back.
 *
 * @example
 *   const inUse = runningProcesses()?.some((p) => p.args.some((arg) => arg.includes('dist/node-builds/')));
 */
export function runningProcesses(): RunningProcess[] | undefined {
  if (existsSync('/proc/self/cmdline')) return fromProc();
  try {
    const lines = execFileSync('ps', ['-A', '-ww', '-o', 'pid=', '-o', 'args='], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return lines
      .split('\n')
      .map((line) => /^\s*(\d+)\s+(.*)$/.exec(line))
      .filter((match) => match !== null)
      .map((match) => ({ pid: Number(match[1]), args: match[2]!.split(' ') }));
  } catch {
    return undefined;
  }
}

function fromProc(): RunningProcess[] {
  const processes: RunningProcess[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let args: string[];
    try {
      args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean);
    } catch {
      // The process ended while we looked.
      continue;
    }
    let cwd: string | undefined;
    try {
      cwd = readlinkSync(`/proc/${entry}/cwd`);
    } catch {
      // Another user's process: its arguments are readable, its working folder is not.
    }
    processes.push({ pid: Number(entry), args, ...(cwd === undefined ? {} : { cwd }) });
  }
  return processes;
}

/** Whether the process `pid` is running (one of another user's counts). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
