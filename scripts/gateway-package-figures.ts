/**
 * What the installed `ai-gateway` package costs an operator: the size of the .tgz, the time `npm install
 * --omit=dev` takes in an empty folder, what the folder then weighs, and how long the gateway takes from its
 * start to its first answer (a fresh SQLite file each time; `GET /v1/models` polled every 5 ms until it answers
 * 200), with the CPU time the process had used by then (Linux only), which depends less on what else the
 * machine is doing. Prints the figures; README's "Running the gateway" quotes them.
 *
 *   npx tsx scripts/gateway-package-figures.ts                       packs, installs, starts it 10 times
 *   npx tsx scripts/gateway-package-figures.ts --tgz dist/ai-gateway-0.1.0.tgz --runs 20
 *   npx tsx scripts/gateway-package-figures.ts --folder /tmp/installed   reuses a folder it installed into
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { freePort } from './lib/free-port.ts';
import { root } from './lib/paths.ts';

const { values } = parseArgs({ options: { tgz: { type: 'string' }, folder: { type: 'string' }, runs: { type: 'string', default: '10' } } });
const runs = Number(values.runs);

let tgz = values.tgz && resolve(values.tgz);
if (!values.folder && !tgz) {
  tgz = execFileSync('npm', ['run', '-s', 'pack:gateway'], { cwd: root, encoding: 'utf8' }).trim().split('\n').at(-1)!;
}
if (tgz) console.log(`${tgz}: ${mb(statSync(tgz).size)} packed`);

let folder = values.folder && resolve(values.folder);
if (!folder) {
  folder = mkdtempSync(join(tmpdir(), 'ai-gateway-figures-'));
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'operators-gateway', private: true }));
  const started = performance.now();
  execFileSync('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline', tgz!], { cwd: folder, stdio: ['ignore', 'ignore', 'inherit'] });
  console.log(`npm install --omit=dev --prefer-offline in an empty folder (${folder}): ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

const modules = join(folder, 'node_modules');
const parts = readdirSync(modules)
  .filter((name) => !name.startsWith('.'))
  .map((name) => ({ name, bytes: diskUsage(join(modules, name)) }))
  .sort((a, b) => b.bytes - a.bytes);
console.log(`installed: node_modules ${mb(diskUsage(modules))} on disk, ${parts.length} packages; the largest: ${parts.slice(0, 5).map((p) => `${p.name} ${mb(p.bytes)}`).join(', ')}`);

const command = join(modules, '.bin', 'ai-gateway');
const clockTicks = existsSync('/proc/self/stat') ? Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) : 100;
const data = mkdtempSync(join(tmpdir(), 'ai-gateway-figures-data-'));
const wall: number[] = [];
const cpu: number[] = [];
try {
  for (let run = 0; run < runs; run++) {
    const port = await freePort();
    const started = performance.now();
    const child = spawn(command, ['--port', String(port), '--db', join(data, `run-${run}.sqlite`)], { cwd: folder, stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    for (;;) {
      const status = await fetch(`http://127.0.0.1:${port}/v1/models`).then((r) => r.status, () => 0);
      if (status === 200) break;
      if (child.exitCode !== null) throw new Error(`ai-gateway exited with ${child.exitCode} before it answered`);
      await sleep(5);
    }
    wall.push(performance.now() - started);
    const used = cpuMs(child.pid!);
    if (used !== undefined) cpu.push(used);
    child.kill('SIGTERM');
    await exited;
  }
} finally {
  rmSync(data, { recursive: true, force: true });
}
console.log(`start to first answer, ${runs} starts: median ${seconds(median(wall))} (fastest ${seconds(Math.min(...wall))}, slowest ${seconds(Math.max(...wall))})`);
if (cpu.length > 0) console.log(`CPU time used by then: median ${seconds(median(cpu))}`);
console.log(`load average while measuring: ${loadavg()[0]!.toFixed(1)} on ${readFileSync('/proc/cpuinfo', 'utf8').match(/^processor/gm)?.length ?? '?'} cores`);
if (!values.folder) console.log(`(the installed folder is left at ${folder}: --folder ${folder} measures again without installing)`);

/** Bytes on disk, as `du` counts them: a file with several names (node-gyp links its build's outputs) once. */
function diskUsage(path: string, seen = new Set<number>()): number {
  const stat = lstatSync(path);
  if (seen.has(stat.ino)) return 0;
  seen.add(stat.ino);
  let bytes = stat.blocks * 512;
  if (stat.isDirectory()) for (const name of readdirSync(path)) bytes += diskUsage(join(path, name), seen);
  return bytes;
}

/** CPU time (user and system) a process has used, from /proc; undefined elsewhere. */
function cpuMs(pid: number): number | undefined {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return undefined;
  const text = readFileSync(stat, 'utf8');
  // After the command's name in parentheses: utime and stime are fields 14 and 15, in clock ticks.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function mb(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}
