/**
 * Two real third-party AI gateways from npm, started on 127.0.0.1 and an ephemeral port so that a test or the benchmark can put
 * them in front of the reference server and judge what comes out (test/peers/, docs/peer-findings.md):
 *
 * - Portkey's `@portkey-ai/gateway`: a command line only (the package exports nothing, and importing its one
 *   file starts a server and installs process-wide handlers that swallow errors), so it runs as a child process,
 *   with scripts/lib/loopback-preload.mjs binding it to 127.0.0.1 and reporting its port.
 * - `@llmops/gateway` (a fork of Portkey's): a library whose default export is a Hono app, served here in
 *   process with `@hono/node-server`.
 *
 * Both route by request headers: which provider's protocol the request speaks, and the upstream's base URL.
 *
 * @example
 *   const gateway = await startPortkey();
 *   await fetch(`${gateway.baseUrl}/v1/chat/completions`, { method: 'POST', headers: { ...gateway.headers('openai', server.baseUrl), authorization: 'Bearer sk-…' }, body });
 *   await gateway.close();
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type PeerProvider = 'openai' | 'anthropic';

export interface PeerGateway {
  /** `@portkey-ai/gateway 1.15.2`: the package and the version installed. */
  name: string;
  /** `http://127.0.0.1:<port>`. */
  baseUrl: string;
  /**
   * The headers that route a request through the gateway to `upstreamRoot` (a server's root, such as the
   * reference's `http://127.0.0.1:<port>`) in `provider`'s protocol. The key is not among them: each gateway
   * forwards the client's own (`Authorization: Bearer` for openai, `x-api-key` or Bearer for anthropic).
   */
  headers(provider: PeerProvider, upstreamRoot: string): Record<string, string>;
  /** The process it runs in when it has one of its own (Portkey's), for its CPU time; none for one in this process. */
  pid?: number;
  /** Stops it; for Portkey, resolves once the child process has exited. */
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));

function installed(pkg: string): { dir: string; version: string } {
  // Resolved through package.json: Portkey's package has neither `main` nor `exports`.
  const file = require.resolve(`${pkg}/package.json`);
  return { dir: path.dirname(file), version: (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version };
}

/**
 * Both gateways take the provider's base URL in `x-<prefix>-custom-host`, and it replaces OpenAI's
 * `https://api.openai.com/v1` (Anthropic's `…/v1`) as it is: so it ends in `/v1`, and without a trailing slash
 * (with one, the request goes to `…/v1//chat/completions`, which the reference does not know).
 */
function routing(prefix: string) {
  return (provider: PeerProvider, upstreamRoot: string): Record<string, string> => ({
    [`x-${prefix}-provider`]: provider,
    [`x-${prefix}-custom-host`]: `${upstreamRoot.replace(/\/+$/, '')}/v1`,
  });
}

/** The last part of a child's output, for an error message. */
const LOG_LIMIT = 20_000;

export interface StartPortkeyOptions {
  /** How long the child may take to listen (it usually does in about a second; a loaded machine is slower). */
  startTimeoutMs?: number;
}

/**
 * Portkey's gateway in a child process (`start-server.js --port=0 --headless`; `--headless` leaves out its
 * console page and log stream). A child that exits or does not listen in time rejects with its output.
 */
export async function startPortkey(options: StartPortkeyOptions = {}): Promise<PeerGateway> {
  const { dir, version } = installed('@portkey-ai/gateway');
  const cli = path.join(dir, 'build', 'start-server.js');
  const preload = path.join(here, 'loopback-preload.mjs');
  // A TRUSTED_CUSTOM_HOSTS of the environment would have to name 127.0.0.1; the child needs none.
  const { TRUSTED_CUSTOM_HOSTS: _trusted, ...env } = process.env;
  const child = spawn(process.execPath, ['--import', preload, cli, '--port=0', '--headless'], {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-LOG_LIMIT);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const alive = () => child.exitCode === null && child.signalCode === null;

  const stop = async (): Promise<void> => {
    if (!alive()) return;
    child.kill('SIGTERM');
    // The preload closes the server and exits; a child that hangs all the same is killed.
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };

  const port = await new Promise<number>((resolve, reject) => {
    const timeoutMs = options.startTimeoutMs ?? 20_000;
    const timer = setTimeout(() => fail(`did not listen within ${timeoutMs} ms`), timeoutMs);
    const onExit = (code: number | null, signal: string | null) => fail(`exited (${code ?? signal}) before listening`);
    const onError = (error: Error) => fail(`could not be started: ${error.message}`);
    const onMessage = (message: unknown) => {
      const m = message as { type?: string; port?: number } | null;
      if (m?.type !== 'listening' || typeof m.port !== 'number') return;
      done();
      resolve(m.port);
    };
    function done() {
      clearTimeout(timer);
      child.off('exit', onExit).off('error', onError).off('message', onMessage);
    }
    function fail(why: string) {
      done();
      void stop().then(() => reject(new Error(`Portkey's gateway ${why}. Its output:\n${log || '(none)'}`)));
    }
    child.on('exit', onExit).on('error', onError).on('message', onMessage);
  });

  return {
    name: `@portkey-ai/gateway ${version}`,
    baseUrl: `http://127.0.0.1:${port}`,
    headers: routing('portkey'),
    ...(child.pid !== undefined && { pid: child.pid }),
    close: stop,
  };
}

/**
 * `@llmops/gateway`'s Hono app, served in this process. Importing it only builds the app (it reads its
 * settings, such as TRUSTED_CUSTOM_HOSTS, from the environment then, once); the module is cached, so a second
 * start only listens again.
 */
export async function startLlmops(): Promise<PeerGateway> {
  const { version } = installed('@llmops/gateway');
  const [{ default: app }, { serve }] = await Promise.all([import('@llmops/gateway'), import('@hono/node-server')]);
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    name: `@llmops/gateway ${version}`,
    baseUrl: `http://127.0.0.1:${port}`,
    headers: routing('llmops'),
    close: () =>
      new Promise<void>((resolve, reject) => {
        // Kept-alive connections would hold close() open until they time out.
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
