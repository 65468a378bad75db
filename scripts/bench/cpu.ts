/**
 * CPU time spent by another process, from `/proc/<pid>/stat` (Linux). Divided by the requests a server
 * answered, it is the work each request costs that server, a figure that moves far less than requests per
 * second on a shared machine, where another guest can slow a whole round down.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let ticksPerSecond: number | undefined;

/** The kernel's clock ticks per second (USER_HZ), in which /proc counts CPU time: 100 almost everywhere. */
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/**
 * User plus system CPU time of `pid` so far, in microseconds (to the kernel's tick, usually 10 ms);
 * undefined where there is no /proc (the benchmark then shows no CPU figures).
 *
 * @example
 *   const before = cpuTimeUs(server.pid);
 *   await load();
 *   const perRequest = (cpuTimeUs(server.pid)! - before!) / requests;
 */
export function cpuTimeUs(pid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name, in parentheses, may hold spaces: fields are counted after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime and stime, fields 14 and 15 of proc(5)
  return Number.isFinite(ticks) ? (ticks * 1_000_000) / clockTicks() : undefined;
}

/**
 * CPU time of every process descended from `pid` (not `pid` itself), in microseconds: a server that runs
 * as a family of processes, as PostgreSQL does (a postmaster, a backend per connection, writers); undefined
 * where there is no /proc. Processes that ended meanwhile are not counted.
 *
 * @example
 *   const before = descendantsCpuTimeUs(postgres.pid);
 */
export function descendantsCpuTimeUs(pid: number): number | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return undefined;
  }
  const parents = new Map<number, number>();
  for (const entry of entries) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended while we looked.
    }
  }
  const descends = (child: number): boolean => {
    for (let at = parents.get(child); at !== undefined && at > 1; at = parents.get(at)) if (at === pid) return true;
    return false;
  };
  let total = 0;
  for (const child of parents.keys()) if (descends(child)) total += cpuTimeUs(child) ?? 0;
  return total;
}
