/**
 * The machine a run is measured on, and what the processes under test spend of it: CPU time and peak memory,
 * read from `/proc` (Linux; elsewhere there are no CPU figures, and RSS reads 0).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, release, totalmem, type } from 'node:os';
import { describeTree, type Tree } from './builds.ts';

/** When, where and on which tree a run was measured, and how its servers were launched: figures mean little without it. */
export interface RunHeader {
  mode: 'full' | 'quick';
  startedAt: string;
  elapsedS: number;
  machine: { cores: number; cpu: string; node: string; os: string; memoryGb: number };
  tree: Tree;
  /** The 1-minute load average when the run started and when it ended: how shared the machine was. */
  loadAverage: [number, number];
  serverFlags: string[];
  serverEnv: Record<string, string>;
}

/** Notes the start of a run; the function it returns describes the run once it has ended. */
export function startRun(mode: RunHeader['mode'], launch: Pick<RunHeader, 'serverFlags' | 'serverEnv'>): () => RunHeader {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const startLoad = loadavg()[0] ?? 0;
  return () => ({
    mode,
    startedAt,
    elapsedS: (performance.now() - started) / 1000,
    machine: { cores: availableParallelism(), cpu: cpus()[0]?.model.trim() ?? 'unknown', node: process.version, os: `${type()} ${release()}`, memoryGb: Math.round(totalmem() / 2 ** 30) },
    tree: describeTree(),
    loadAverage: [startLoad, loadavg()[0] ?? 0],
    ...launch,
  });
}

/** /proc counts CPU time in USER_HZ ticks, 100 a second in Linux's ABI whatever the kernel's own tick. */
const TICKS_PER_SECOND = 100;

/** The fields of `/proc/<pid>/stat` after the command name (which may hold spaces), or undefined. */
function statFields(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** User plus system CPU time of `pid` so far (all its threads), in µs; undefined without /proc. */
export function cpuTimeUs(pid: number): number | undefined {
  const fields = statFields(pid);
  const ticks = Number(fields?.[11]) + Number(fields?.[12]); // utime and stime, fields 14 and 15 of proc(5)
  return Number.isFinite(ticks) ? (ticks * 1_000_000) / TICKS_PER_SECOND : undefined;
}

/** CPU time of every living descendant of `pid`, in µs: a server that runs as a family of processes, as PostgreSQL does. */
export function descendantsCpuTimeUs(pid: number): number | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return undefined;
  }
  const parents = new Map<number, number>();
  for (const entry of entries) {
    const parent = statFields(entry)?.[1];
    if (parent !== undefined) parents.set(Number(entry), Number(parent));
  }
  const descends = (child: number): boolean => {
    for (let at = parents.get(child); at !== undefined && at > 1; at = parents.get(at)) if (at === pid) return true;
    return false;
  };
  let total = 0;
  for (const child of parents.keys()) if (descends(child)) total += cpuTimeUs(child) ?? 0;
  return total;
}

/**
 * Counts CPU time from now: divided by the requests a load answered, it is what a request costs the server, a
 * figure that moves far less than requests per second on a shared machine. `perRequest` is null without /proc.
 */
export function cpuMeter(read: () => number | undefined): { perRequest(requests: number): number | null } {
  const before = read();
  return {
    perRequest(requests) {
      const after = read();
      return before !== undefined && after !== undefined && requests > 0 ? (after - before) / requests : null;
    },
  };
}

export interface RssSampler {
  /** RSS right now, in MB. */
  now(): number;
  /** Starts a phase whose peak is wanted (phases of one sampler do not overlap); `end()` gives its peak in MB. */
  phase(): { end(): number };
  /** Highest RSS seen since the sampler started, in MB. */
  readonly peak: number;
  stop(): void;
}

/**
 * Samples the RSS of `pid` every `intervalMs`, and reads the kernel's own peak (`VmHWM`, reset through
 * `clear_refs`) as well, so that no spike shorter than the interval is missed.
 */
export function sampleRss(pid: number, intervalMs = 50): RssSampler {
  let overall = 0;
  let phasePeak = 0;
  const read = (): number => {
    const kb = readStatus(pid)?.rss ?? 0;
    overall = Math.max(overall, kb);
    phasePeak = Math.max(phasePeak, kb);
    return kb;
  };
  read();
  const timer = setInterval(read, intervalMs);
  timer.unref();
  return {
    now: () => mb(read()),
    phase() {
      phasePeak = 0;
      const kernelPeak = resetPeak(pid);
      read();
      return {
        end() {
          read();
          const hwm = kernelPeak ? (readStatus(pid)?.hwm ?? 0) : 0;
          overall = Math.max(overall, hwm);
          return mb(Math.max(phasePeak, hwm));
        },
      };
    },
    get peak() {
      return mb(overall);
    },
    stop: () => clearInterval(timer),
  };
}

const mb = (kb: number) => Math.round((kb / 1024) * 10) / 10;

function readStatus(pid: number): { rss: number; hwm: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { rss: field('VmRSS'), hwm: field('VmHWM') };
  } catch {
    return undefined;
  }
}

/** Writing 5 to clear_refs resets the peak RSS the kernel keeps (allowed for our own children). */
function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}
