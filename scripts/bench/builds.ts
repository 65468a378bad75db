/**
 * The builds a run measures: this tree's, described by its commit, and another commit's, built to be measured
 * beside it (`npm run bench -- --baseline <ref>`). The commit is checked out in a temporary git work tree,
 * given its dependencies and compiled by its own `npm run build:server`, so that it is the server that
 * commit's `npm start` ran; the work tree is removed afterwards, whatever happened.
 *
 * When the commit's package-lock.json is this tree's byte for byte, the work tree links to this tree's
 * node_modules (`npm ci` would install exactly those packages). When it differs, it gets its own `npm ci`: its
 * lock may pin other versions of the packages the server runs on, whose speed is part of what a build is.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { root } from '../lib/paths.ts';

export interface BaselineBuild {
  /** The ref as given (`main`, `HEAD~1`), its commit and the commit's first line. */
  ref: string;
  commit: string;
  subject: string;
  /** The temporary work tree, and the folder of its compiled server (what its `dist/node` names). */
  dir: string;
  build: string;
  dependencies: 'linked' | 'installed';
  /** Removes the work tree (and git's record of it). */
  remove(): void;
}

const git = (args: string[], cwd = root) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** This tree: its commit, and whether tracked files differ from it. */
export type Tree = { commit: string; subject: string; modified: boolean };

export function describeTree(): Tree {
  try {
    return { commit: git(['rev-parse', 'HEAD']), subject: git(['log', '-1', '--format=%s']), modified: git(['status', '--porcelain', '--untracked-files=no']) !== '' };
  } catch {
    return { commit: 'unknown', subject: 'not a git checkout', modified: false };
  }
}

/** Runs a command in `cwd`; its output (in the error) is shown only if it fails. */
const run = (command: string, args: string[], cwd: string) => promisify(execFile)(command, args, { cwd, maxBuffer: 64 * 2 ** 20 });

/** Checks out `ref` in a temporary work tree, installs or links its dependencies, and compiles its server. */
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
