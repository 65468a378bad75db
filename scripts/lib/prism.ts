/**
 * Starts the Prism mock of the contract (`@stoplight/prism-cli`, static examples, CORS on) and says when it
 * listens. `npm run mock` uses it, and so do the tests, the conformance suite's tests and the benchmark.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, unwatchFile, watchFile, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { freePort, portIsFree } from './free-port.ts';
import { mockDocument } from './mock-document.ts';
import { bin, root } from './paths.ts';

export interface MockOptions {
  /** Port to listen on; by default a free one (Prism cannot listen on port 0 itself). */
  port?: number;
  /** Interface to listen on (default `127.0.0.1`). */
  host?: string;
  /** The bundled contract to mock (default `generated/openapi.json`). */
  document?: string;
  /** Follow changes of `document` (after `npm run generate`); Prism then reloads by itself. */
  watch?: boolean;
  /** Every line Prism prints (its request log, with each request's violations). Silent by default. */
  onOutput?: (line: string) => void;
  /** Give up when Prism has not said it listens after this long (default 30 s). */
  startTimeoutMs?: number;
}

export interface MockExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Mock {
  /** Where Prism listens, as it says itself, e.g. `http://127.0.0.1:4010`. */
  baseUrl: string;
  port: number;
  host: string;
  /** Prism's process id (the benchmark measures its memory). */
  pid: number;
  /** Settles when Prism stops, whoever stopped it. */
  exited: Promise<MockExit>;
  /** Stops Prism (SIGTERM unless told otherwise) and waits until it has. */
  close(signal?: NodeJS.Signals): Promise<MockExit>;
}

const listening = /Prism is listening on (\S+)/;
// Prism colours its log when it believes it writes to a terminal; match on the plain text.
const ansi = /\u001b\[[0-9;]*m/g;

/**
 * Starts Prism on `host:port` and resolves once it listens.
 *
 * @example
 *   const mock = await startMock();
 *   const res = await fetch(`${mock.baseUrl}/v1/models`);
 *   await mock.close();
 */
export async function startMock(options: MockOptions = {}): Promise<Mock> {
  const host = options.host ?? '127.0.0.1';
  if (options.port && !(await portIsFree(host, options.port))) {
    throw new Error(`Port ${options.port} on ${host} is already in use (another mock?). Choose another one, e.g. MOCK_PORT=4011.`);
  }
  // A port we picked ourselves may be taken before Prism binds it: then pick another.
  const attempts = options.port ? 1 : 3;
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await freePort(host));
    try {
      return await launch({ ...options, host, port });
    } catch (error) {
      if (attempt >= attempts || !(error instanceof PortInUseError)) throw error;
    }
  }
}

class PortInUseError extends Error {}

async function launch(options: MockOptions & { host: string; port: number }): Promise<Mock> {
  const source = options.document ?? join(root, 'generated', 'openapi.json');
  const dir = mkdtempSync(join(tmpdir(), 'gateway-mock-'));
  const document = join(dir, 'openapi.json');
  writeMockDocument(source, document);

  const child = spawn(bin('prism'), ['mock', '--host', options.host, '--port', String(options.port), '--cors', document], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });

  // The last lines Prism printed, to explain a failed start.
  const recent: string[] = [];
  let announced: ((url: string) => void) | undefined;
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      recent.push(line);
      if (recent.length > 40) recent.shift();
      options.onOutput?.(line);
      const match = listening.exec(line.replace(ansi, ''));
      if (match) announced?.(match[1]!);
    });
  }

  if (options.watch) {
    watchFile(source, { interval: 300 }, (current, previous) => {
      if (current.mtimeMs === previous.mtimeMs) return;
      try {
        writeMockDocument(source, document);
      } catch {
        // Caught mid-write: the next change event brings the whole file.
      }
    });
  }

  const exited = new Promise<MockExit>((resolve) => {
    child.once('exit', (code, signal) => {
      if (options.watch) unwatchFile(source);
      rmSync(dir, { recursive: true, force: true });
      resolve({ code, signal });
    });
  });

  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timeoutMs = options.startTimeoutMs ?? 30_000;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`Prism did not start listening within ${timeoutMs} ms:\n${recent.join('\n')}`));
    }, timeoutMs);
    announced = (url) => {
      clearTimeout(timer);
      resolve(url);
    };
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      const output = recent.join('\n');
      const Failure = /EADDRINUSE/.test(output) ? PortInUseError : Error;
      reject(new Failure(`Prism stopped (${signal ?? `exit code ${code}`}) before listening:\n${output}`));
    });
  });

  return {
    baseUrl,
    port: options.port,
    host: options.host,
    pid: child.pid!,
    exited,
    async close(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill(signal);
        // Prism stops at once on SIGTERM; never leave one behind if it does not.
        const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(force);
      }
      return exited;
    },
  };
}

/** The document Prism serves: see mock-document.ts for what differs from the contract. */
export function servedDocument(spec: object): object {
  return mockDocument(spec);
}

function writeMockDocument(source: string, target: string): void {
  const spec = JSON.parse(readFileSync(source, 'utf8')) as object;
  writeFileSync(target, JSON.stringify(servedDocument(spec)));
}
