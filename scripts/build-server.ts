/**
 * Compiles the reference server (and the modules it uses) to plain JavaScript, for `npm start`, the
 * benchmark and the reliability run. Running TypeScript through tsx costs a loader thread with its own V8
 * heap (about 33 MB of RSS) and start-up time; the compiled files run on node alone. Tests and scripts
 * keep running the sources under tsx.
 *
 * Every source file is compiled on its own (esbuild, one file per module, same folders as in the package),
 * with `./x.ts` imports rewritten to `./x.js` and packages left to node_modules.
 *
 * A running server loads files long after it started (each worker thread loads its engine when it starts),
 * so a build never changes or removes the files of one: a second `npm start` beside a running one, or a test
 * while one runs, would otherwise make its next worker fail with ERR_MODULE_NOT_FOUND.
 *
 *   dist/node-builds/<hash>/   one build per state of its inputs (the sources, tsconfig.json, this script,
 *                              esbuild's version), named by their hash; compiled in a folder of its own,
 *                              renamed into place whole, never written again. Inputs already built are not
 *                              built again.
 *   dist/node                  a symbolic link to the build made last, replaced in one rename.
 *
 * Node runs a module from its real path, so a server started through `dist/node` keeps running from the
 * build the link named then. Each build removes the old builds that no running process can be using: it
 * keeps the one it replaced (a server may be starting from it this moment), every build a process names
 * (in its command line or as its working folder), and all of them while a process runs something through
 * `dist/node` (which build that is, nothing says). `npm start` runs the server from its build's own folder,
 * so that only that build is kept for it. One build at a time puts its folder in place, swaps the link and
 * removes old builds (a lock, held for milliseconds); compiling happens beside it.
 *
 *   tsx scripts/build-server.ts    builds (or finds) the build, links dist/node to it, prints its folder
 */
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { build, version as esbuildVersion, type Plugin } from 'esbuild';
import { root } from './lib/paths.ts';
import { isRunning, runningProcesses } from './lib/running-processes.ts';

/** The link to the newest build: `node dist/node/src/server/main.js` runs it. */
export const serverBuildDir = join(root, 'dist', 'node');
/** The builds, one folder each. */
const buildsDir = join(root, 'dist', 'node-builds');
/** A folder being compiled or removed, or a link being made, by the process whose pid follows. */
const WORK_IN_PROGRESS = /^\.(?:partial|removing|link)-(\d+)(?:-|$)/;
/** Held far longer than this, the lock's holder is not a build (a pid the system gave again). */
const LOCK_STALE_MS = 60_000;

/** The entries a build holds: every module under `src/`, and the benchmark's server entry. */
function sources(): string[] {
  const files = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => join(root, 'src', file));
  return [...files, join(root, 'scripts', 'bench', 'reference-entry.ts')];
}

/** The name of the build of the inputs as they are now: their hash. */
function buildName(): string {
  const hash = createHash('sha256').update(`esbuild ${esbuildVersion}\0`);
  const inputs = [...sources(), join(root, 'tsconfig.json'), fileURLToPath(import.meta.url)];
  for (const file of inputs.sort()) hash.update(`${relative(root, file)}\0`).update(readFileSync(file)).update('\0');
  return hash.digest('hex').slice(0, 16);
}

/** Relative imports stay imports (each file is its own entry), with `.ts` turned into `.js`. */
const relativeImportsAsJs: Plugin = {
  name: 'relative-imports-as-js',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => (args.kind === 'entry-point' ? undefined : { path: args.path.replace(/\.ts$/, '.js'), external: true }));
  },
};

/** Compiles into a new folder beside the builds (inside the package, so that the modules find its root; see src/package-root.ts). */
async function compileAside(): Promise<string> {
  const outDir = mkdtempSync(join(buildsDir, `.partial-${process.pid}-`));
  // As any folder of the package (mkdtemp makes it its owner's alone).
  chmodSync(outDir, 0o755);
  try {
    await build({
      entryPoints: sources(),
      outdir: outDir,
      outbase: root,
      bundle: true, // only so that the plugin sees every import; all of them are external
      packages: 'external',
      plugins: [relativeImportsAsJs],
      platform: 'node',
      format: 'esm',
      target: 'node20',
      sourcemap: 'linked',
      logLevel: 'warning',
    });
    return outDir;
  } catch (error) {
    rmSync(outDir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Builds the server from the sources as they are (or finds that build made already), links `dist/node` to
 * it, removes old builds no running process can be using, and resolves with the build's folder: run
 * `<folder>/src/server/main.js`.
 *
 * @example
 *   const build = await buildServer();
 *   spawn(process.execPath, [join(build, 'src', 'server', 'main.js'), '--port', '0']);
 */
export async function buildServer(): Promise<string> {
  const name = buildName();
  const dir = join(buildsDir, name);
  mkdirSync(buildsDir, { recursive: true });
  for (;;) {
    const compiled = existsSync(dir) ? undefined : await compileAside();
    const done = await holdingLock(() => {
      if (!existsSync(dir)) {
        // Removed as an old build since we looked: compile it after all.
        if (!compiled) return false;
        renameSync(compiled, dir);
      } else if (compiled) {
        // Another build of the same inputs came first, with the same files.
        rmSync(compiled, { recursive: true, force: true });
      }
      removeOldBuilds(name, link(name));
      return true;
    });
    if (done) return dir;
  }
}

/** The folder of the build `dist/node` links to now. */
export function currentServerBuild(): string {
  return realpathSync(serverBuildDir);
}

/** Runs `task` while holding the lock on the builds (a symbolic link naming the holder's pid). */
async function holdingLock<T>(task: () => T): Promise<T> {
  const lock = join(buildsDir, '.lock');
  for (;;) {
    try {
      symlinkSync(String(process.pid), lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    try {
      const holder = Number(readlinkSync(lock));
      // A holder killed while holding it leaves it behind.
      if (!isRunning(holder) || Date.now() - lstatSync(lock).mtimeMs > LOCK_STALE_MS) rmSync(lock, { force: true });
      else await sleep(20);
    } catch {
      // Released while we looked.
    }
  }
  try {
    return task();
  } finally {
    rmSync(lock, { force: true });
  }
}

/** Points `dist/node` at the build `name`, replacing the link in one rename; returns the build it named before. */
function link(name: string): string | undefined {
  let previous: string | undefined;
  try {
    const stat = lstatSync(serverBuildDir);
    if (stat.isSymbolicLink()) {
      previous = basename(readlinkSync(serverBuildDir));
    } else {
      // A dist/node from before builds had folders of their own: one old build among the others.
      previous = `before-${process.pid}`;
      renameSync(serverBuildDir, join(buildsDir, previous));
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (previous === name) return undefined;
  const staged = join(buildsDir, `.link-${process.pid}`);
  rmSync(staged, { force: true });
  // Relative, so that the checkout can move.
  symlinkSync(relative(join(root, 'dist'), join(buildsDir, name)), staged);
  renameSync(staged, serverBuildDir);
  return previous;
}

/** Removes every build but `current` and `previous` that no running process can be using, and what dead builds left. */
function removeOldBuilds(current: string, previous: string | undefined): void {
  const entries = readdirSync(buildsDir);
  for (const entry of entries) {
    const owner = WORK_IN_PROGRESS.exec(entry)?.[1];
    if (owner !== undefined && !isRunning(Number(owner))) rmSync(join(buildsDir, entry), { recursive: true, force: true });
  }
  const old = entries.filter((entry) => !entry.startsWith('.') && entry !== current && entry !== previous);
  if (old.length === 0) return;
  const inUse = buildsInUse(old);
  if (inUse === 'all') return;
  for (const name of old) {
    if (inUse.has(name)) continue;
    // Out of the way in one rename first, so that nothing starts from a build half removed.
    const removing = join(buildsDir, `.removing-${process.pid}-${name}`);
    renameSync(join(buildsDir, name), removing);
    rmSync(removing, { recursive: true, force: true });
  }
}

/**
 * Which of the builds `names` running processes may load files from: those a process names by their folder in
 * this checkout (an argument, or its working folder), or all of them while one names this checkout's
 * `dist/node` (which build that is, nothing says) or when the running processes cannot be listed. Another
 * checkout's build of the same sources has the same name, in its own `dist`: its servers do not keep ours.
 */
function buildsInUse(names: string[]): Set<string> | 'all' {
  const processes = runningProcesses();
  if (!processes) return 'all';
  const dist = realpathSync(join(root, 'dist'));
  const builds = realpathSync(buildsDir);
  const used = new Set<string>();
  for (const { args, cwd } of processes) {
    for (const text of cwd === undefined ? args : [...args, cwd]) {
      for (const name of names) {
        const at = text.indexOf(`node-builds/${name}`);
        if (at < 0) continue;
        // Kept unless its folder is certainly another: one not found (a checkout moved since) may be ours.
        const folder = folderOf(text, at + 'node-builds'.length, cwd);
        if (folder === undefined || folder === 'unknown' || folder === builds) used.add(name);
      }
      if (throughLink(text, cwd, dist)) return 'all';
    }
  }
  return used;
}

/** Whether a path a process was given goes through the `dist/node` link of the checkout whose `dist` is `dist`. */
function throughLink(arg: string, cwd: string | undefined, dist: string): boolean {
  const at = /dist\/node(?:\/|$)/.exec(arg)?.index;
  if (at === undefined) return false;
  // A folder not found is not this checkout's `dist`, which is there.
  const folder = folderOf(arg, at + 'dist'.length, cwd);
  return folder === 'unknown' || folder === dist;
}

/**
 * The real path of the folder a process's argument names up to `end` (from after an option's `=`, as in
 * `--import=dist/node/…`, or a file URL's scheme), resolved from its working folder: undefined when that is no
 * folder on this machine, 'unknown' when the path is relative and the working folder is not known.
 */
function folderOf(arg: string, end: number, cwd: string | undefined): string | undefined | 'unknown' {
  let folder = arg.slice(arg.lastIndexOf('=', end) + 1, end);
  if (folder.startsWith('file://')) folder = fileURLToPath(folder);
  if (!isAbsolute(folder) && cwd === undefined) return 'unknown';
  try {
    return realpathSync(resolve(cwd ?? '/', folder));
  } catch {
    return undefined;
  }
}

if (process.argv[1] && relative(process.argv[1], new URL(import.meta.url).pathname) === '') {
  console.log(await buildServer());
}
