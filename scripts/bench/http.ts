/**
 * Servers side by side under the same load: each in turn, round after round, with the CPU time and the peak
 * RSS of its process in each round. Each figure is the median round, each ratio the median of the rounds'.
 */
import { runLoad, type LoadResult, type LoadSpec } from './load.ts';
import { cpuMeter, cpuTimeUs, type RssSampler } from './machine.ts';
import type { ServerProcess } from './processes.ts';
import type { BenchSettings } from './settings.ts';
import { median, ratioOfRounds } from './stats.ts';

/** A server and the sampler of its memory. */
export interface Measured {
  server: ServerProcess;
  rss: RssSampler;
}

export type Round = LoadResult & { cpuUsPerRequest: number | null; rssPeakMb: number; pid: number };

/** One server's figures over the rounds: the median round's (by requests per second), the totals, and every round's. */
export interface ServerFigure {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  errors: number;
  errorKinds: Record<string, number>;
  non2xx: number;
  roundsRps: number[];
  /** CPU time (user + system, all threads) per answered request, µs: the median round; null without /proc. */
  cpuUsPerRequest: number | null;
  roundsCpuUs: Array<number | null>;
  /** The process each round measured. */
  roundsPid: number[];
  /** Peak RSS of the process over the rounds, MB. */
  rssPeakMb: number;
}

export type TargetName = 'reference' | 'bare';

export const targetLabels: Record<TargetName, string> = {
  reference: 'reference',
  bare: 'bare node:http',
};

export interface HttpScenarioResult {
  name: 'models' | 'chat';
  label: string;
  figures: Record<TargetName, ServerFigure>;
  /** reference / bare node:http in requests per second, the median of the rounds' ratios. */
  ratios: { bare: number };
}

/** One timed load on one server, with the CPU time its process spent and its peak RSS meanwhile. */
export async function measureRound(target: Measured, spec: LoadSpec, load: { connections: number; durationS?: number; amount?: number }): Promise<Round> {
  const phase = target.rss.phase();
  const cpu = cpuMeter(() => cpuTimeUs(target.server.pid));
  const result = await runLoad(target.server.baseUrl, spec, load);
  return { ...result, cpuUsPerRequest: cpu.perRequest(result.requests), rssPeakMb: phase.end(), pid: target.server.pid };
}

export function serverFigure(rounds: readonly Round[]): ServerFigure {
  const { rps, p50Ms, p99Ms } = [...rounds].sort((a, b) => a.rps - b.rps)[Math.floor((rounds.length - 1) / 2)]!;
  const cpu = rounds.map((r) => r.cpuUsPerRequest);
  const errorKinds: Record<string, number> = {};
  for (const r of rounds) for (const [kind, n] of Object.entries(r.errorKinds)) errorKinds[kind] = (errorKinds[kind] ?? 0) + n;
  const total = (pick: (r: Round) => number) => rounds.reduce((n, r) => n + pick(r), 0);
  return {
    rps,
    p50Ms,
    p99Ms,
    requests: total((r) => r.requests),
    errors: total((r) => r.errors),
    errorKinds,
    non2xx: total((r) => r.non2xx),
    roundsRps: rounds.map((r) => r.rps),
    cpuUsPerRequest: cpu.some((c) => c === null) ? null : median(cpu as number[]),
    roundsCpuUs: cpu,
    roundsPid: rounds.map((r) => r.pid),
    rssPeakMb: Math.max(...rounds.map((r) => r.rssPeakMb)),
  };
}

/** Each server in turn, `rounds` times, after a warm-up. */
export async function measureScenario(scenario: Omit<HttpScenarioResult, 'figures' | 'ratios'> & { spec: LoadSpec }, targets: Array<Measured & { name: TargetName }>, settings: BenchSettings['http'], log: (line: string) => void): Promise<HttpScenarioResult> {
  const { connections, warmupS, durationS, rounds } = settings;
  if (warmupS > 0) {
    log(`${scenario.label}: warming up`);
    for (const t of targets) await runLoad(t.server.baseUrl, scenario.spec, { connections, durationS: warmupS });
  }
  const runs = new Map<TargetName, Round[]>(targets.map((t) => [t.name, []]));
  for (let round = 1; round <= rounds; round++) {
    for (const t of targets) {
      log(`${scenario.label}: ${t.name}, round ${round} of ${rounds}`);
      runs.get(t.name)!.push(await measureRound(t, scenario.spec, { connections, durationS }));
    }
  }
  const figures = Object.fromEntries(targets.map((t) => [t.name, serverFigure(runs.get(t.name)!)])) as Record<TargetName, ServerFigure>;
  const ratio = (other: TargetName) => ratioOfRounds(figures.reference.roundsRps, figures[other].roundsRps)?.median ?? 0;
  return { name: scenario.name, label: scenario.label, figures, ratios: { bare: ratio('bare') } };
}
