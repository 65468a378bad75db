/**
 * The servers under test, each in a child process of its own (so its memory is its own, and a profile can
 * be taken of it alone): started, waited for until they say they listen, and stopped.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { currentServerBuild } from '../build-server.ts';
import { root } from '../lib/paths.ts';
import { startMock } from '../lib/prism.ts';

export interface ServerProcess {
  name: string;
  baseUrl: string;
  pid: number;
  /** What the process printed to say it was ready (the `bench-ready` line of the bench entries). */
  ready: Record<string, unknown>;
  close(): Promise<void>;
}

export interface SpawnOptions {
  /** Flags for `node` itself (e.g. `--max-old-space-size=1024`). */
  nodeFlags?: string[];
  /** Environment variables besides ours. */
  env?: Record<string, string>;
  /**
   * Write V8 CPU profiles of the process to this folder when it stops (`node --cpu-prof`): one per thread,
   * the largest being the main thread's (tsx runs its loader in a thread of its own).
   */
  cpuProfileDir?: string;
  /** Seconds to wait for the process to be ready. */
  timeoutS?: number;
  /**
   * Run the entry as `npm start` runs the server: compiled to `dist/node/` by `npm run build:server`, on
   * node alone (no tsx loader thread, whose heap would count in the server's memory).
   */
  compiled?: boolean;
  /**
   * With `compiled`: the folder of the build to run the entry from (another commit's, for a comparison of
   * builds); this tree's current build by default.
   */
  build?: string;
  /** The process's working folder (default: this package's root). */
  cwd?: string;
  /** A command that runs node (e.g. valgrind and its options): the process started is that command's. */
  wrapper?: string[];
}

/**
 * Runs a TypeScript entry of `scripts/bench/` with `node --import tsx` (not the `tsx` command, which would
 * put a second process between us and the server), or its compiled form in `dist/node/`, and waits for its `bench-ready {"port": …}` line. What
 * it writes to stderr afterwards (errors) is passed on to ours.
 *
 * @example
 *   const ref = await startEntry('reference', 'scripts/bench/reference-entry.ts', ['--image-keys', '10']);
 *   await fetch(`${ref.baseUrl}/v1/models`);
 *   await ref.close();
 */
export async function startEntry(name: string, entry: string, args: string[] = [], options: SpawnOptions = {}): Promise<ServerProcess> {
  const nodeArgs = [...(options.nodeFlags ?? []), ...(options.compiled ? [] : ['--import', 'tsx'])];
  // From the build's own folder, as `npm start` runs it (a process run through `dist/node` holds back the
  // removal of every old build: scripts/build-server.ts).
  const script = options.compiled ? join(options.build ?? currentServerBuild(), entry.replace(/\.ts$/, '.js')) : resolve(root, entry);
  if (options.cpuProfileDir) {
    mkdirSync(options.cpuProfileDir, { recursive: true });
    nodeArgs.push('--cpu-prof', '--cpu-prof-dir', options.cpuProfileDir);
  }
  const command = [...(options.wrapper ?? []), process.execPath, ...nodeArgs, script, ...args];
  const child = spawn(command[0]!, command.slice(1), {
    cwd: options.cwd ?? root,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const line = await waitForOutput(child, name, (text) => /^bench-ready (\{.*\})$/m.exec(text)?.[1], options.timeoutS ?? 30);
  // What the server logs from now on (warnings and errors only) is worth seeing beside the figures. Passed on
  // chunk by chunk, not piped: a run has a dozen servers at once, and a dozen pipes into one stderr make
  // node warn of a listener leak.
  const passOn = (chunk: Buffer) => process.stderr.write(chunk);
  child.stdout!.on('data', passOn);
  child.stderr!.on('data', passOn);
  const ready = JSON.parse(line) as Record<string, unknown> & { port: number };
  return { name, baseUrl: `http://127.0.0.1:${ready.port}`, pid: child.pid!, ready, close: () => stop(child) };
}

/**
 * Runs the Prism mock of the contract as `npm run mock` does (`startMock` of `scripts/lib/prism.ts`).
 *
 * @example
 *   const prism = await startPrism();
 */
export async function startPrism(): Promise<ServerProcess> {
  const mock = await startMock({ startTimeoutMs: 90_000 });
  const pid = childListeningOn(mock.port);
  if (pid === undefined) throw new Error(`cannot find the Prism process listening on port ${mock.port}`);
  return {
    name: 'prism',
    baseUrl: mock.baseUrl,
    pid,
    ready: {},
    close: async () => {
      await mock.close();
    },
  };
}

/**
 * The pid of our child process started with `--port <port>` (startMock does not say which process is
 * Prism, and its memory is measured too).
 */
function childListeningOn(port: number): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent !== process.pid) continue;
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (args[args.indexOf('--port') + 1] === String(port)) return Number(entry);
    } catch {
      // The process ended while we looked.
    }
  }
  return undefined;
}

function waitForOutput(child: ChildProcess, name: string, find: (text: string) => string | undefined, timeoutS: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => fail(new Error(`${name} did not start within ${timeoutS} s:\n${output.slice(-2000)}`)), timeoutS * 1000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const found = find(output);
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
