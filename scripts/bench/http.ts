/** Requests per second side by side: the servers take turns under the same load, round after round. */
import { cpuTimeUs } from './cpu.ts';
import { runLoad, summariseRounds, type LoadResult, type LoadSpec } from './load.ts';
import { percentile } from './stats.ts';
import type { ServerProcess } from './processes.ts';
import type { HttpFigure, HttpScenarioResult, TargetName } from './results.ts';
import type { RssSampler } from './rss.ts';
import type { BenchSettings } from './settings.ts';

export interface Target {
  name: TargetName;
  server: ServerProcess;
  rss: RssSampler;
}

/**
 * Each server in turn, `rounds` times, after a warm-up; each server's figure is its median round, each ratio
 * the median of the rounds' ratios.
 *
 * @example
 *   const models = await measureScenario({ name: 'models', label: 'GET /v1/models', spec }, targets, fullSettings.http, console.log);
 *   models.ratios.bare // 0.83
 */
export async function measureScenario(
  scenario: { name: HttpScenarioResult['name']; label: string; spec: LoadSpec },
  targets: Target[],
  settings: BenchSettings['http'],
  log: (line: string) => void,
): Promise<HttpScenarioResult> {
  const { connections, warmupS, durationS, rounds } = settings;
  if (warmupS > 0) {
    log(`${scenario.label}: warming up`);
    for (const t of targets) await runLoad(t.server.baseUrl, scenario.spec, { connections, durationS: warmupS });
  }
  const runs = new Map<TargetName, RoundResult[]>(targets.map((t) => [t.name, []]));
  for (let round = 1; round <= rounds; round++) {
    for (const t of targets) {
      log(`${scenario.label}: ${t.name}, round ${round} of ${rounds}`);
      const phase = t.rss.phase();
      const cpuBefore = cpuTimeUs(t.server.pid);
      const result = await runLoad(t.server.baseUrl, scenario.spec, { connections, durationS });
      const cpuAfter = cpuTimeUs(t.server.pid);
      const cpuUsPerRequest = cpuBefore !== undefined && cpuAfter !== undefined && result.requests > 0 ? (cpuAfter - cpuBefore) / result.requests : null;
      runs.get(t.name)!.push({ ...result, rssPeakMb: phase.end(), cpuUsPerRequest });
    }
  }
  const figures = Object.fromEntries(targets.map((t) => [t.name, summarise(runs.get(t.name)!)])) as Record<TargetName, HttpFigure>;
  return {
    name: scenario.name,
    label: scenario.label,
    figures,
    ratios: { bare: roundRatio(figures.reference, figures.bare), prism: roundRatio(figures.reference, figures.prism) },
  };
}

/**
 * The median of the ratios of each round: the two servers of a ratio ran seconds apart, so a change in
 * the machine's load between rounds moves both figures of a round alike.
 */
function roundRatio(a: HttpFigure, b: HttpFigure): number {
  const ratios = a.roundsRps.map((rps, i) => ((b.roundsRps[i] ?? 0) > 0 ? rps / b.roundsRps[i]! : 0)).sort((x, y) => x - y);
  return ratios[Math.floor((ratios.length - 1) / 2)] ?? 0;
}

type RoundResult = LoadResult & { rssPeakMb: number; cpuUsPerRequest: number | null };

function summarise(rounds: RoundResult[]): HttpFigure {
  return {
    ...summariseRounds(rounds),
    non2xx: rounds.reduce((n, r) => n + r.non2xx, 0),
    rssPeakMb: Math.max(...rounds.map((r) => r.rssPeakMb)),
    cpuUsPerRequest: rounds.some((r) => r.cpuUsPerRequest === null) ? null : percentile(rounds.map((r) => r.cpuUsPerRequest!), 50),
  };
}
