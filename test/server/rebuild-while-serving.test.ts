/**
 * `npm run build:server` while a compiled server runs (a second `npm start` from the same checkout, or a test
 * beside a running server): the server keeps every file it runs from, so the worker threads it starts while
 * the build runs and after it load their modules, and no request fails. Unchanged sources are not built
 * again, and old builds go once no process runs from them.
 *
 * All in a copy of the package (its sources, scripts and bundled contract; node_modules linked), whose
 * sources the test changes between builds; the build is the real script, run as `npm run build:server` runs
 * it, and the servers are the compiled ones, run as a user runs them (through `dist/node`) and as `npm start`
 * does (from the build's own folder).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/paths.ts';

let copy: string;
const running: ChildProcess[] = [];

beforeAll(() => {
  copy = realpathSync(mkdtempSync(join(tmpdir(), 'gateway-rebuild-')));
  for (const part of ['src', 'scripts', 'generated']) cpSync(join(root, part), join(copy, part), { recursive: true });
  for (const file of ['package.json', 'tsconfig.json']) cpSync(join(root, file), join(copy, file));
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
});

afterAll(async () => {
  await Promise.all(running.map(stop));
  rmSync(copy, { recursive: true, force: true });
});

/** Runs the copy's `npm run build:server`; resolves with the build's folder, which it prints. */
function build(): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join('scripts', 'build-server.ts')], { cwd: copy, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(stdout.trim().split('\n').at(-1)!) : reject(new Error(`the build exited with ${code}:\n${stderr}`))));
  });
}

let changes = 0;
/** Changes a source that worker threads load, so that the next build compiles it to other bytes. */
function changeSources(): void {
  appendFileSync(join(copy, 'src', 'server', 'workers', 'engine-worker.ts'), `\nexport const rebuild${++changes} = ${changes};\n`);
}

/** The builds in the copy's dist/node-builds, by name. */
function builds(): string[] {
  return readdirSync(join(copy, 'dist', 'node-builds'))
    .filter((entry) => !entry.startsWith('.'))
    .sort();
}

/** Every file of a folder with the hash of its bytes. */
function filesOf(dir: string): Record<string, string> {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  return Object.fromEntries(files.map((f) => [join(f.parentPath, f.name).slice(dir.length), createHash('sha256').update(readFileSync(join(f.parentPath, f.name))).digest('hex')]));
}

/** Starts a compiled server from `main` (with fresh worker pools: each engine's first request starts its first worker). */
function startServer(main: string): Promise<{ baseUrl: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [main, '--port', '0', '--store', 'memory'], {
    cwd: copy,
    env: { ...process.env, GATEWAY_TEXT_WORKERS: '2', GATEWAY_IMAGE_WORKERS: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) resolve({ baseUrl: match[1]!, child });
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}:\n${output}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** A chat completion (text worker) and an image (image worker): their statuses. */
async function chat(baseUrl: string): Promise<number> {
  const res = await fetch(`${baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'x-api-key': 'sk-demo-starter', 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello there!' }] }),
  });
  await res.arrayBuffer();
  return res.status;
}

async function image(baseUrl: string): Promise<number> {
  const res = await fetch(`${baseUrl}/v1/generation/image?model=image-gen`, {
    method: 'POST',
    headers: { 'x-api-key': 'sk-demo-pro', 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'A lighthouse at dawn', size: '256x256' }),
  });
  await res.arrayBuffer();
  return res.status;
}

describe('building the server while it runs', () => {
  let first: string;
  let server: { baseUrl: string; child: ChildProcess };
  let last: string;

  it('keeps the files of a server run from dist/node while builds replace it, so every worker it starts loads', async () => {
    first = await build();
    server = await startServer(join(copy, 'dist', 'node', 'src', 'server', 'main.js'));
    const before = filesOf(first);

    // A build of changed sources, and meanwhile the server's first requests, which start its text workers.
    changeSources();
    const building = build();
    let built = false;
    void building.then(() => (built = true), () => (built = true));
    const statuses: number[] = [];
    do statuses.push(...(await Promise.all([chat(server.baseUrl), chat(server.baseUrl)])));
    while (!built);
    const second = await building;
    expect(second).not.toBe(first);
    // The image worker starts after the build; another build then leaves the first neither linked nor the one replaced.
    statuses.push(await image(server.baseUrl));
    changeSources();
    last = await build();
    statuses.push(await image(server.baseUrl), ...(await Promise.all([chat(server.baseUrl), chat(server.baseUrl)])));

    expect(statuses.every((status) => status === 200), `statuses: ${statuses.join(', ')}`).toBe(true);
    // Not one byte of what the server runs from changed, whatever the moment its workers started at.
    expect(filesOf(first)).toEqual(before);
    expect(realpathSync(join(copy, 'dist', 'node'))).toBe(last);
  }, 120_000);

  it('does not build unchanged sources again', async () => {
    const listed = builds();
    const files = filesOf(last);
    expect(await build()).toBe(last);
    expect(builds()).toEqual(listed);
    expect(filesOf(last)).toEqual(files);
  }, 60_000);

  it('removes old builds once no server runs from them, but the one just replaced', async () => {
    await stop(server.child);
    changeSources();
    const next = await build();
    expect(builds()).toEqual([last, next].map((dir) => dir.split('/').at(-1)).sort());
    last = next;
  }, 60_000);

  it('does not keep a build for a process of another checkout that runs its own build of the same sources', async () => {
    const name = last.split('/').at(-1)!;
    // Another checkout of the same commit (a clone beside this one): its build of these sources has the same
    // name, in its own dist. A process that names it, as `npm start` there names its build.
    const other = join(copy, 'other-checkout', 'dist', 'node-builds', name);
    mkdirSync(other, { recursive: true });
    const elsewhere = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', join(other, 'src', 'server', 'main.js')], { stdio: 'ignore' });
    running.push(elsewhere);
    changeSources();
    await build();
    changeSources();
    last = await build();
    const kept = builds();
    await stop(elsewhere);
    expect(kept).not.toContain(name);
  }, 60_000);

  it('keeps the build a server runs from by its own folder, as npm start runs it, until it stops', async () => {
    const own = last;
    const npmStarted = await startServer(join(own, 'src', 'server', 'main.js'));
    changeSources();
    await build();
    changeSources();
    await build();
    expect(builds()).toContain(own.split('/').at(-1));
    expect(await image(npmStarted.baseUrl)).toBe(200);

    await stop(npmStarted.child);
    changeSources();
    await build();
    expect(builds()).not.toContain(own.split('/').at(-1));
    expect(builds()).toHaveLength(2);
  }, 120_000);

  it('gives two builds of the same sources at once the same folder, and leaves nothing half made', async () => {
    changeSources();
    const [one, two] = await Promise.all([build(), build()]);
    expect(one).toBe(two);
    expect(realpathSync(join(copy, 'dist', 'node'))).toBe(one);
    expect(readdirSync(join(copy, 'dist', 'node-builds')).filter((entry) => entry.startsWith('.'))).toEqual([]);
  }, 60_000);
});
