/**
 * Peak memory (RSS) of another process during a phase of the benchmark. On Linux the kernel keeps the peak
 * itself (`VmHWM`, reset through `clear_refs`), so no short spike is missed between two samples; the
 * ~50 ms samples of `VmRSS` (or `ps` elsewhere) are kept as well, as a cross-check and as the fallback.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

export interface RssPhase {
  /** Ends the phase: its peak RSS in MB (the larger of the kernel's peak and the highest sample). */
  end(): number;
}

export interface RssSampler {
  /** RSS right now, in MB. */
  now(): number;
  /** Starts a phase whose peak is wanted. Phases of one sampler do not overlap. */
  phase(): RssPhase;
  /** Highest RSS seen since the sampler started, in MB. */
  readonly peak: number;
  stop(): void;
}

/**
 * Samples the RSS of `pid` every `intervalMs`.
 *
 * @example
 *   const rss = sampleRss(server.pid);
 *   const phase = rss.phase();
 *   await load();
 *   console.log(`peak ${phase.end()} MB`);
 *   rss.stop();
 */
export function sampleRss(pid: number, intervalMs = 50): RssSampler {
  const procfs = readProc(pid) !== undefined;
  let overall = 0;
  let phasePeak = 0;
  const read = (): number => {
    const kb = procfs ? (readProc(pid)?.rss ?? 0) : readPs(pid);
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
      const kernelPeak = procfs && resetPeak(pid);
      read();
      return {
        end() {
          read();
          const hwm = kernelPeak ? (readProc(pid)?.hwm ?? 0) : 0;
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

function mb(kb: number): number {
  return Math.round((kb / 1024) * 10) / 10;
}

function readProc(pid: number): { rss: number; hwm: number } | undefined {
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

function readPs(pid: number): number {
  try {
    return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) || 0;
  } catch {
    return 0;
  }
}
