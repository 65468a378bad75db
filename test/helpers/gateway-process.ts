/**
 * The gateway started as an operator starts it, in a process of its own (`npm start`'s main, the installed
 * `ai-gateway`): resolves once its banner is printed, with the base URL it names (so `--port 0` works) and
 * everything it said; `stop()` sends SIGTERM and resolves with its exit code.
 *
 * @example
 *   const gateway = await startGatewayProcess(process.execPath, ['--import', 'tsx', 'src/server/main.ts', '--port', '0'], { cwd: root, env: process.env });
 *   expect(await gateway.stop()).toBe(0);
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface GatewayProcess {
  baseUrl: string;
  child: ChildProcess;
  /** What it printed so far, standard output and error together. */
  output(): string;
  /** SIGTERM, then its exit code. */
  stop(): Promise<number | null>;
  /** Resolves with its exit code when it exits. */
  exited: Promise<number | null>;
}

export async function startGatewayProcess(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<GatewayProcess> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      // The banner ends with its curl line.
      if (match && output.includes('curl ')) resolve(match[1]!);
    });
    void exited.then((code) => reject(new Error(`${command} exited with ${code}:\n${output}`)));
  });
  return {
    baseUrl,
    child,
    output: () => output,
    exited,
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}
