/**
 * What the validating proxy adds: the time to the first event of a streamed chat, and the listing's requests
 * per second, directly and through it, taking turns round after round. Every stream is checked whole.
 */
import { runLoad, type LoadSpec } from './load.ts';
import { startEntry, type ServerProcess } from './processes.ts';
import type { BenchSettings } from './settings.ts';
import { median } from './stats.ts';
import { timeToFirstEvent, type StreamTarget } from './streams.ts';

export interface ProxyResult {
  /** Time to the first event, median over rounds of each round's p50 and p99, in ms. */
  ttfe: { direct: { p50Ms: number; p99Ms: number }; proxied: { p50Ms: number; p99Ms: number }; addedP50Ms: number; addedP99Ms: number; failures: number };
  /** The listing, requests per second (median round), and the median of the rounds' ratios proxied/direct. */
  models: { connections: number; directRps: number; proxiedRps: number; ratio: number };
}

export async function measureProxy(reference: ServerProcess, stream: StreamTarget, models: LoadSpec, settings: BenchSettings['proxy'], log: (line: string) => void): Promise<ProxyResult> {
  const proxy = await startEntry('proxy', 'scripts/bench/proxy-entry.ts', ['--upstream', reference.baseUrl]);
  try {
    const direct = { p50: [] as number[], p99: [] as number[] };
    const proxied = { p50: [] as number[], p99: [] as number[] };
    let failures = 0;
    const rps = { direct: [] as number[], proxied: [] as number[], ratios: [] as number[] };
    await runLoad(proxy.baseUrl, models, { connections: settings.connections, durationS: 1 }); // warm-up
    for (let round = 1; round <= settings.rounds; round++) {
      log(`proxy: time to first event, round ${round} of ${settings.rounds}`);
      const a = await timeToFirstEvent(stream, settings.streams);
      const b = await timeToFirstEvent({ ...stream, baseUrl: proxy.baseUrl }, settings.streams);
      direct.p50.push(a.p50Ms), direct.p99.push(a.p99Ms), proxied.p50.push(b.p50Ms), proxied.p99.push(b.p99Ms);
      failures += a.failures + b.failures;
      log(`proxy: GET /v1/models at ${settings.connections} connections, round ${round} of ${settings.rounds}`);
      const x = await runLoad(reference.baseUrl, models, { connections: settings.connections, durationS: settings.durationS });
      const y = await runLoad(proxy.baseUrl, models, { connections: settings.connections, durationS: settings.durationS });
      failures += x.errors + x.non2xx + y.errors + y.non2xx;
      for (const [who, r] of [['direct', x], ['proxied', y]] as const) if (r.errors + r.non2xx > 0) log(`proxy: ${who}: ${JSON.stringify({ errors: r.errorKinds, statuses: r.statuses })}`);
      for (const [who, r] of [['direct', a], ['proxied', b]] as const) if (r.failures > 0) log(`proxy: ${who} streams: ${r.problems.join('; ')}`);
      rps.direct.push(x.rps), rps.proxied.push(y.rps), rps.ratios.push(y.rps / x.rps);
    }
    const ttfe = {
      direct: { p50Ms: median(direct.p50), p99Ms: median(direct.p99) },
      proxied: { p50Ms: median(proxied.p50), p99Ms: median(proxied.p99) },
    };
    return {
      ttfe: { ...ttfe, addedP50Ms: ttfe.proxied.p50Ms - ttfe.direct.p50Ms, addedP99Ms: ttfe.proxied.p99Ms - ttfe.direct.p99Ms, failures },
      models: { connections: settings.connections, directRps: median(rps.direct), proxiedRps: median(rps.proxied), ratio: median(rps.ratios) },
    };
  } finally {
    await proxy.close();
  }
}
