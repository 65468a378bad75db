/**
 * The servers under test, each in a child process of its own (so that its memory and CPU time are its own):
 * started, waited for until they say they listen, and stopped.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { currentServerBuild } from '../build-server.ts';
import { root } from '../lib/paths.ts';

export interface ServerProcess {
  name: string;
  baseUrl: string;
  pid: number;
  /** What the process printed to say it was ready (the `bench-ready` line of the bench entries). */
  ready: Record<string, unknown>;
  close(): Promise<void>;
}

export interface SpawnOptions {
  /** Flags for `node` itself, and environment variables besides ours. */
  nodeFlags?: string[];
  env?: Record<string, string>;
  /** Write V8 CPU profiles of the process to this folder when it stops (`node --cpu-prof`, one per thread). */
  cpuProfileDir?: string;
  /** Seconds to wait for the process to be ready. */
  timeoutS?: number;
  /**
   * Run the entry as `npm start` runs the server: compiled by `npm run build:server`, on node alone (no tsx
   * loader thread, whose heap would count in the server's memory); from `build` (another commit's) and `cwd`.
   */
  compiled?: boolean;
  build?: string;
  cwd?: string;
}

/**
 * Runs an entry of `scripts/bench/` with `node --import tsx` (not the `tsx` command, which would put a second
 * process between us and the server), or its compiled form, and waits for its `bench-ready {"port": …}` line.
 */
export async function startEntry(name: string, entry: string, args: string[] = [], options: SpawnOptions = {}): Promise<ServerProcess> {
  const nodeArgs = [...(options.nodeFlags ?? []), ...(options.compiled ? [] : ['--import', 'tsx'])];
  // From the build's own folder, as `npm start` runs it: a process run through `dist/node` would hold back the
  // removal of every old build (scripts/build-server.ts).
  const script = options.compiled ? join(options.build ?? currentServerBuild(), entry.replace(/\.ts$/, '.js')) : resolve(root, entry);
  if (options.cpuProfileDir) {
    mkdirSync(options.cpuProfileDir, { recursive: true });
    nodeArgs.push('--cpu-prof', '--cpu-prof-dir', options.cpuProfileDir);
  }
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], { cwd: options.cwd ?? root, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const line = await waitForReady(child, name, options.timeoutS ?? 30);
  // What the server logs from now on (warnings and errors) is worth seeing beside the figures; passed on chunk
  // by chunk, since a dozen pipes into one stderr make node warn of a listener leak.
  const passOn = (chunk: Buffer) => process.stderr.write(chunk);
  child.stdout!.on('data', passOn);
  child.stderr!.on('data', passOn);
  const ready = JSON.parse(line) as Record<string, unknown> & { port: number };
  return { name, baseUrl: `http://127.0.0.1:${ready.port}`, pid: child.pid!, ready, close: () => stop(child) };
}

function waitForReady(child: ChildProcess, name: string, timeoutS: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => fail(new Error(`${name} did not start within ${timeoutS} s:\n${output.slice(-2000)}`)), timeoutS * 1000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /^bench-ready (\{.*\})$/m.exec(output)?.[1];
      if (found === undefined) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      child.stdout!.off('data', onData);
      child.stderr!.off('data', onError);
      resolve(found);
    };
    const onError = (chunk: Buffer) => (output += chunk.toString());
    const onExit = (code: number | null) => fail(new Error(`${name} exited (code ${code}) before it was ready:\n${output.slice(-2000)}`));
    function fail(error: Error) {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    }
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onError);
    child.once('exit', onExit);
  });
}

/** SIGTERM (the entries close gracefully, which also writes a CPU profile), SIGKILL after 5 s. */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
