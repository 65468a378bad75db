/**
 * Another commit's reference server, built to be measured beside this tree's (`npm run bench -- --baseline
 * <ref>`): the commit is checked out in a temporary git work tree, given its dependencies, and compiled by its
 * own `npm run build:server`, so that it is the server that commit's `npm start` ran. The work tree is
 * removed afterwards, whatever happened.
 *
 * Dependencies: when the commit's package-lock.json is this tree's byte for byte, `npm ci` would install
 * exactly the packages already in node_modules, so the work tree links to them (seconds instead of minutes,
 * and no second copy). When it differs, the commit gets its own `npm ci`: its lock may pin other versions of
 * the packages the server runs on (Fastify, ajv, the tokenizer), whose speed is part of what a build is, and a
 * server run on another commit's packages would be neither build.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from '../lib/paths.ts';

export interface BaselineBuild {
  /** The ref as given (`6fe2d06`, `main`, `HEAD~1`). */
  ref: string;
  commit: string;
  /** The commit's first line. */
  subject: string;
  /** The temporary work tree. */
  dir: string;
  /** The folder of its compiled server (what its `dist/node` names). */
  build: string;
  /** How it got its dependencies. */
  dependencies: 'linked' | 'installed';
  /** Removes the work tree (and git's record of it). */
  remove(): void;
}

const git = (args: string[], cwd = root) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** Runs a command in `cwd`; its output is kept and shown only if it fails. */
function run(command: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed (exit ${code}) in ${cwd}:\n${output.slice(-3000)}`))));
  });
}

/**
 * Checks out `ref` in a temporary work tree, installs or links its dependencies, and compiles its server.
 *
 * @example
 *   const baseline = await prepareBaseline('6fe2d06', console.log);
 *   try { … } finally { baseline.remove(); }
 */
export async function prepareBaseline(ref: string, log: (line: string) => void): Promise<BaselineBuild> {
  let commit: string;
  try {
    commit = git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  } catch {
    throw new Error(`'${ref}' names no commit of this repository (in a shallow clone, fetch it first: git fetch --unshallow)`);
  }
  const subject = git(['log', '-1', '--format=%s', commit]);
  const dir = mkdtempSync(join(tmpdir(), 'bench-baseline-'));
  let registered = false;
  let linked = false;
  const remove = () => {
    // The link first: removing the work tree must never reach into this tree's node_modules.
    if (linked) unlinkSync(join(dir, 'node_modules'));
    linked = false;
    if (registered) {
      try {
        git(['worktree', 'remove', '--force', dir]);
      } catch {
        rmSync(dir, { recursive: true, force: true });
        git(['worktree', 'prune']);
      }
      registered = false;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // Interrupted while it is prepared (npm ci takes minutes), the work tree is removed all the same.
  const interrupted = (signal: NodeJS.Signals) => {
    remove();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    log(`baseline: checking out ${commit.slice(0, 10)} (${subject.slice(0, 70)}) in ${dir}`);
    git(['worktree', 'add', '--detach', dir, commit]);
    registered = true;
    const lock = (folder: string) => (existsSync(join(folder, 'package-lock.json')) ? readFileSync(join(folder, 'package-lock.json')) : undefined);
    const ours = lock(root);
    const theirs = lock(dir);
    let dependencies: BaselineBuild['dependencies'];
    if (ours && theirs && ours.equals(theirs) && existsSync(join(root, 'node_modules'))) {
      log('baseline: its package-lock.json is this tree\'s: linking node_modules');
      symlinkSync(realpathSync(join(root, 'node_modules')), join(dir, 'node_modules'), 'dir');
      linked = true;
      dependencies = 'linked';
    } else {
      log('baseline: its package-lock.json differs from this tree\'s: npm ci in the work tree (a minute or two)');
      await run('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], dir);
      dependencies = 'installed';
    }
    log('baseline: compiling its server (npm run build:server)');
    await run('npm', ['run', '-s', 'build:server'], dir);
    const link = join(dir, 'dist', 'node');
    if (!existsSync(join(link, 'scripts', 'bench', 'reference-entry.js'))) {
      throw new Error(`${commit.slice(0, 10)} has no compiled benchmark entry (dist/node/scripts/bench/reference-entry.js): the comparison needs a commit whose npm run build:server makes one`);
    }
    const build = lstatSync(link).isSymbolicLink() ? realpathSync(link) : link;
    return { ref, commit, subject, dir, build, dependencies, remove };
  } catch (error) {
    remove();
    throw error;
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
  }
}
