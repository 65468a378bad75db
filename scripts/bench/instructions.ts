/**
 * Instructions per request, counted by valgrind's callgrind: a figure that does not move with the machine's
 * load, so that a change of a few percent can be told from noise (`npm run bench -- --baseline <ref>
 * --instructions`). The server runs under callgrind without instrumentation until it is warmed up (its
 * JIT-compiled code settled: every kind is sent `warmup` requests first), then counts every instruction of
 * every thread (the event loop, the workers, V8's helpers; V8's optimizing compiler apart, see
 * `compilerInstructions`) while a fixed number of requests is answered. It runs some 50 times slower than natively, so
 * the counts are taken with few connections, on fewer requests than the timed rounds.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoad } from './load.ts';
import { startEntry } from './processes.ts';
import { replayEntries, type ReplayServer } from './replies.ts';
import { kindRequest, type RequestKind } from './requests.ts';
import { thousands } from './stats.ts';

export interface InstructionCounts {
  /**
   * Instructions per answered request, all threads of the server's process but V8's optimizing compiler (see
   * `compilerInstructions`): the lowest count, once the counts have settled (`countsSettled`).
   */
  perRequest: number;
  /** Each count's instructions per request, the compiler's left out: two to four of them. */
  passes: number[];
  /** Each count's instructions of V8's optimizing compiler per request, left out of the figures above. */
  compiler: number[];
  /** Requests counted, over both counts. */
  requests: number;
  /** Answers that were not 2xx, or connection errors (the count is then not what it says). */
  failed: number;
}

/** Whether valgrind can be run here. */
export function haveCallgrind(): boolean {
  return spawnSync('valgrind', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * Starts the compiled server of `build` under callgrind (or `replay`: bare node:http or Fastify alone
 * replaying one kind's captured answer, bare-entry.ts and fastify-entry.ts) and counts the instructions of `requests` requests of each kind, after
 * `warmup` uncounted ones.
 *
 * @example
 *   const counts = await countInstructions({ build, cwd, kinds: ['models'], warmup: 6000, requests: 2000, … });
 *   counts.models?.perRequest; // 141_000
 */
export async function countInstructions(
  options: (
    | { build: string; cwd: string; replay?: undefined }
    /** Instead of a build: a server replaying the answers of this file (`{ "METHOD /path": reply }`). */
    | { replay: { server: ReplayServer; replies: string } }
  ) & {
    nodeFlags: string[];
    env: Record<string, string>;
    kinds: readonly RequestKind[];
    warmup: number;
    requests: number;
    log: (line: string) => void;
  },
): Promise<Partial<Record<RequestKind, InstructionCounts>>> {
  if (!haveCallgrind()) throw new Error('--instructions needs valgrind (its callgrind tool) on the PATH');
  const dir = mkdtempSync(join(tmpdir(), 'bench-callgrind-'));
  // --smc-check: V8 writes and rewrites machine code in memory that is neither stack nor a file.
  const valgrind = ['valgrind', '--tool=callgrind', '--instr-atstart=no', '--smc-check=all-non-file', `--callgrind-out-file=${join(dir, 'callgrind.out')}`, `--log-file=${join(dir, 'valgrind.log')}`];
  // Without V8's memory reducer: it runs on a timer and starts full collections when it sees the program
  // allocate slowly, taking it for idle. Under callgrind every request takes some fifty times longer, so the
  // reducer saw an idle server under full load and collected over and over; each collection let go of the maps
  // and code of the kinds not being counted, which were then deoptimized and compiled again when their turn
  // came. With it, the same build's count of a kind moved by up to 14% between two runs and the second count
  // of a run came out up to twice the first; without it, two runs agree within 0.6%. At full speed under
  // load the reducer does not run (the server allocates fast), so the flag takes away only what callgrind's
  // slowness added.
  const nodeFlags = [...options.nodeFlags, '--no-memory-reducer'];
  const server = options.replay
    ? await startEntry('callgrind', replayEntries[options.replay.server], [options.replay.replies], { nodeFlags, env: options.env, wrapper: valgrind, timeoutS: 300 })
    : await startEntry('callgrind', 'scripts/bench/reference-entry.ts', [], {
        compiled: true,
        build: options.build,
        cwd: options.cwd,
        nodeFlags,
        env: options.env,
        wrapper: valgrind,
        timeoutS: 300,
      });
  const control = (...args: string[]) => execFileSync('callgrind_control', [...args, String(server.pid)], { stdio: 'ignore' });
  const counts: Partial<Record<RequestKind, InstructionCounts>> = {};
  try {
    // Every kind is warmed up before any is counted: the code they share (HTTP, Fastify, the engine) settles
    // in the JIT over all of them, and the first kind counted would otherwise pay for the rest.
    // (A replaying server answers whatever key it is sent.)
    const key = (server.ready.loadKey as string | undefined) ?? 'sk-replay';
    const specs = options.kinds.map((kind) => [kind, kindRequest(kind, key, 3000)] as const);
    for (let pass = 0; pass < 2; pass++) {
      for (const [kind, spec] of specs) {
        options.log(`instructions: warming up ${kind} (${Math.ceil(options.warmup / 2)} requests, pass ${pass + 1} of 2)`);
        await runLoad(server.baseUrl, spec, { connections: 4, amount: Math.ceil(options.warmup / 2) });
      }
    }
    // Counted at least twice, kind after kind: work that runs on the clock (timers, V8's background tasks)
    // lands in whichever count is running when it fires, and is some fifty times more per request under
    // callgrind than natively; and code still being optimised runs dearer until it is. A kind is counted
    // again until its counts have settled (`countsSettled`), up to `MAX_PASSES`; the lowest is the figure,
    // all are shown.
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      const due = specs.filter(([kind]) => pass < 2 || !countsSettled(counts[kind]!.passes, counts[kind]!.compiler));
      for (const [kind, spec] of due) {
        options.log(`instructions: ${kind}, ${options.requests} requests counted (pass ${pass + 1}${pass < 2 ? ' of at least 2' : ': not settled yet'})`);
        control('--instr=on');
        // A few requests with instrumentation on before counting: the first run of each piece of code through
        // callgrind's translation is not the server's work.
        await runLoad(server.baseUrl, spec, { connections: 4, amount: Math.min(200, options.requests) });
        control('--zero');
        const load = await runLoad(server.baseUrl, spec, { connections: 4, amount: options.requests });
        const tag = `bench-${kind}-${pass}`;
        control(`--dump=${tag}`);
        control('--instr=off');
        const dumped = dumpedInstructions(dir, tag);
        const requests = Math.max(1, load.requests);
        const perRequest = Math.round((dumped.total - dumped.compiler) / requests);
        const before = counts[kind];
        counts[kind] = {
          perRequest: Math.min(perRequest, before?.perRequest ?? Infinity),
          passes: [...(before?.passes ?? []), perRequest],
          compiler: [...(before?.compiler ?? []), Math.round(dumped.compiler / requests)],
          requests: (before?.requests ?? 0) + load.requests,
          failed: (before?.failed ?? 0) + load.errors + load.non2xx,
        };
      }
    }
    for (const [kind] of specs) {
      const { passes, compiler } = counts[kind]!;
      if (!countsSettled(passes, compiler)) {
        options.log(`instructions: ${kind} did not settle in ${passes.length} counts (${passes.map((n, i) => `${thousands(n)}, compiler ${thousands(compiler[i]!)}`).join('; ')}): the lowest is the figure`);
      }
    }
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return counts;
}

/** The most counts of one kind (`countInstructions`): four of a streamed answer on the baseline take minutes. */
const MAX_PASSES = 4;

/**
 * Whether a kind's counts have settled: its two lowest within 1% of the lowest, and V8's optimizing compiler
 * quiet during the lowest (under 1% of it). Two counts of this tree agree within 1% (a run's figures within
 * 0.6% of another's), but a build whose code V8 is still optimising after the warm-up does not: 6fe2d06's chat
 * counted 354k then 315k in one run, 354k then 303k in another (its compiler busy in the 315k count, idle in
 * the 303k one), which moved its ratio to this tree from 1.25× to 1.30×. Two counts can also agree while the
 * compiler is busy in both (401.8k and 398.7k for a chat whose settled count is 394k, 25k–28k instructions of
 * compiler a request in each): they are not the figure either.
 *
 * @example
 * countsSettled([354_000, 315_000], [8_000, 23_000]); // false: counted again
 * countsSettled([354_000, 315_000, 303_000, 304_000], [8_000, 23_000, 0, 0]); // true
 */
export function countsSettled(passes: readonly number[], compiler: readonly number[]): boolean {
  const order = passes.map((_, i) => i).sort((a, b) => passes[a]! - passes[b]!);
  const [lowest, next] = order;
  if (lowest === undefined || next === undefined) return false;
  const figure = passes[lowest]!;
  return passes[next]! - figure <= figure * 0.01 && (compiler[lowest] ?? 0) <= figure * 0.01;
}

/** The instructions of the dump made with `--dump=<tag>`, and the compiler's among them (its file is removed once read). */
function dumpedInstructions(dir: string, tag: string): { total: number; compiler: number } {
  for (const file of readdirSync(dir)) {
    const path = join(dir, file);
    const text = readFileSync(path, 'utf8');
    if (!text.split('\n', 30).some((line) => line.startsWith('desc: Trigger:') && line.endsWith(` ${tag}`))) continue;
    const total = /^(?:summary|totals): (\d+)/m.exec(text);
    if (!total) continue;
    const compiler = compilerInstructions(path);
    rmSync(path);
    return { total: Number(total[1]), compiler };
  }
  throw new Error(`callgrind wrote no dump for ${tag}`);
}

/**
 * The instructions of a dump spent in V8's optimizing compiler (TurboFan, `v8::internal::compiler::`), from
 * callgrind_annotate's cost per function. They are left out of the figure: the compiler runs on a background
 * thread whenever code gets hot again, which after the warm-up is now and then, in whichever count is running.
 * While V8's memory reducer ran under callgrind (see `countInstructions`) it compiled again and again, two
 * fifths of a listing's count even after 20,000 requests of warm-up; without it, 0 to 3k instructions a request
 * in most counts, 28k in the first count of a Responses call.
 */
function compilerInstructions(path: string): number {
  const annotated = execFileSync('callgrind_annotate', ['--threshold=100', path], { maxBuffer: 256 * 1024 * 1024 }).toString();
  let compiler = 0;
  for (const line of annotated.split('\n')) {
    const cost = /^\s*([\d,]+) .*v8::internal::compiler::/.exec(line);
    if (cost) compiler += Number(cost[1]!.replaceAll(',', ''));
  }
  return compiler;
}
