/** A full or quick run's figures as tables: printed, written to `artifacts/bench.md`, and into `docs/benchmarks.md`. */
import { storeLabels, type QuotaFigure, type QuotaResult, type StoreName } from './quota.ts';
import { targetLabels, type TargetName } from './http.ts';
import type { BenchResults } from './results.ts';
import { round } from './stats.ts';
import { describeRun, markers, ms, num, percent, tablesAsMarkdown, tablesAsText, times, us, writeBetween, type Table } from './tables.ts';

const targets: TargetName[] = ['reference', 'bare'];
const added = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(2)}`;
const cpuRatio = (a: number | null, b: number | null) => (a === null || b === null || b === 0 ? '' : times(a / b, 1));

function tables(results: BenchResults): Table[] {
  const { settings } = results;
  const http: Table = {
    title: `HTTP: ${settings.http.connections} connections, ${settings.http.rounds} round(s) of ${settings.http.durationS} s per server, medians`,
    headers: ['Request', 'Figure', ...targets.map((t) => targetLabels[t]), 'reference / bare'],
    rows: results.http.flatMap(({ label, figures: f, ratios }) => [
      [label, 'req/s', ...targets.map((t) => num(f[t].rps)), percent(ratios.bare)],
      ['', 'p50 / p99 ms', ...targets.map((t) => `${ms(f[t].p50Ms)} / ${ms(f[t].p99Ms)}`), ''],
      ['', 'server CPU µs/req', ...targets.map((t) => us(f[t].cpuUsPerRequest)), cpuRatio(f.reference.cpuUsPerRequest, f.bare.cpuUsPerRequest)],
      ['', 'peak RSS MB', ...targets.map((t) => num(f[t].rssPeakMb)), ''],
    ]),
  };

  const { ttfe, concurrent } = results.streams;
  const streams: Table = {
    title: `Streaming chat completions (reference, up to ${settings.streams.maxTokens} tokens per answer)`,
    headers: ['Measure', 'Result', 'Time to first event p50 / p99 ms', 'peak RSS MB'],
    rows: [
      [`${ttfe.count} different requests, one after the other`, `${ttfe.count - ttfe.failures} complete, ${ttfe.failures} failed`, `${ms(ttfe.p50Ms)} / ${ms(ttfe.p99Ms)}`, num(ttfe.rssPeakMb)],
      ...concurrent.map((c) => [
        `${c.streams} streams at once (${settings.streams.tokenDelayMs} ms between tokens)`,
        `${c.complete} complete (${c.eventsPerStream} events each, [DONE] last), ${c.errors} errors, ${c.lost} lost; ${c.peakOpen} open at once; all done in ${round(c.durationMs / 1000)} s`,
        `${ms(c.ttfeP50Ms)} / ${ms(c.ttfeP99Ms)}`,
        num(c.rssPeakMb),
      ]),
    ],
  };

  const images: Table = {
    title: 'Image generation (reference, one request at a time)',
    headers: ['Size', 'n', 'median ms', 'p99 ms', 'images/s', 'requests', 'errors / non-2xx', 'peak RSS MB'],
    rows: results.images.map((i) => [i.size, String(i.n), ms(i.p50Ms), ms(i.p99Ms), num(i.imagesPerSecond), String(i.requests), `${i.errors} / ${i.non2xx}`, num(i.rssPeakMb)]),
  };

  const { proxy: p, upstream: u } = results;
  const proxy: Table = {
    title: 'The validating proxy (gateway-conformance proxy) in front of the reference, against it directly',
    headers: ['Measure', 'direct', 'through the proxy', 'added / ratio'],
    rows: [
      ['Streamed chat, time to first event p50 ms', ms(p.ttfe.direct.p50Ms), ms(p.ttfe.proxied.p50Ms), added(p.ttfe.addedP50Ms)],
      ['Streamed chat, time to first event p99 ms', ms(p.ttfe.direct.p99Ms), ms(p.ttfe.proxied.p99Ms), added(p.ttfe.addedP99Ms)],
      [`GET /v1/models req/s, ${p.models.connections} connections`, num(p.models.directRps), num(p.models.proxiedRps), percent(p.models.ratio)],
    ],
  };
  const cpu = u.throughput.cpuUsPerRequest;
  const upstream: Table = {
    title: `A model's upstream (a reference server, OpenAI chat completions, not streamed): directly, through this gateway, through ${u.portkey}`,
    headers: ['Measure', 'direct', 'this gateway', 'Portkey', 'gateway / Portkey'],
    rows: [
      [`One request at a time (${u.latency.requests} each, in turn), p50 ms`, ms(u.latency.direct.p50Ms), ms(u.latency.gateway.p50Ms), ms(u.latency.portkey.p50Ms), ''],
      ['… added to a request, p50 ms', '', added(u.latency.gatewayAdded.p50Ms), added(u.latency.portkeyAdded.p50Ms), ''],
      ['One request at a time, p99 ms', ms(u.latency.direct.p99Ms), ms(u.latency.gateway.p99Ms), ms(u.latency.portkey.p99Ms), ''],
      ['… added to a request, p99 ms', '', added(u.latency.gatewayAdded.p99Ms), added(u.latency.portkeyAdded.p99Ms), ''],
      [`req/s at ${u.throughput.connections} connections (median round)`, num(u.throughput.directRps), num(u.throughput.gatewayRps), num(u.throughput.portkeyRps), times(u.throughput.gatewayVsPortkey, 1)],
      ['CPU µs per request of the process asked (direct: the upstream; else the gateway alone)', us(cpu.direct), us(cpu.gateway), us(cpu.portkey), cpuRatio(cpu.gateway, cpu.portkey)],
      [`A fallback after a connect error (${u.fallback.requests} each, in turn with one upstream), p50 ms`, '', ms(u.fallback.gateway.p50Ms), ms(u.fallback.portkey.p50Ms), ''],
      ['… added to the same gateway with one upstream, p50 ms', '', added(u.fallback.gatewayAdded.p50Ms), added(u.fallback.portkeyAdded.p50Ms), ''],
      ['… added to the same gateway with one upstream, p99 ms', '', added(u.fallback.gatewayAdded.p99Ms), added(u.fallback.portkeyAdded.p99Ms), ''],
    ],
  };

  const memory: Table = {
    title: 'Reference server memory',
    headers: ['Measure', 'MB'],
    rows: [
      ['RSS after start', num(results.memory.startMb)],
      ['RSS, peak of the whole run', num(results.memory.peakMb)],
    ],
  };
  const judged = results.mode === 'full';
  const goals: Table = {
    title: judged ? 'Targets' : 'Targets (quick run: shown, not judged)',
    headers: ['Target', 'Goal', 'Measured', judged ? 'Met' : 'Met (not judged)'],
    rows: results.targets.map((t) => [t.name, t.goal, t.measured, t.met ? 'yes' : 'NO']),
  };
  return [http, streams, images, quotaTable(results.quota), proxy, upstream, memory, goals];
}

/** The quota path: both cases on each store, side by side, and what each store counted. */
function quotaTable(quota: QuotaResult): Table {
  const stores: StoreName[] = ['memory', 'sqlite', 'postgres'];
  const cells = (show: (s: QuotaResult['stores'][number]) => string) => stores.map((store) => {
    const result = quota.stores.find((s) => s.store === store);
    return result ? show(result) : '–';
  });
  const rows = (name: 'granted' | 'refused', label: string, status: number): string[][] => {
    const cpuOf = (store: StoreName) => quota.stores.find((s) => s.store === store)?.[name].cpuUsPerRequest ?? null;
    const other = (figure: QuotaFigure) => Object.entries(figure.statuses).reduce((n, [s, count]) => (Number(s) === status ? n : n + count), 0);
    return [
      [label, 'req/s', ...cells((s) => num(s[name].rps)), times(quota.ratios[name])],
      ['', 'p50 / p99 ms', ...cells((s) => `${ms(s[name].p50Ms)} / ${ms(s[name].p99Ms)}`), ''],
      ['', 'server CPU µs/req', ...cells((s) => us(s[name].cpuUsPerRequest)), cpuRatio(cpuOf('postgres'), cpuOf('sqlite'))],
      ['', 'database CPU µs/req', ...cells((s) => us(s[name].databaseCpuUsPerRequest)), ''],
      ['', `errors / not ${status}`, ...cells((s) => `${s[name].errors} / ${other(s[name])}`), ''],
    ];
  };
  return {
    title: `Quota path: POST /v1/generation/image, ${quota.size}, n = 1, ${quota.connections} connections, ${quota.rounds} round(s) of ${quota.amount !== undefined ? `${quota.amount} requests` : `${quota.durationS} s`} per store, medians`,
    headers: ['Keys', 'Figure', ...stores.map((s) => storeLabels[s]), 'PostgreSQL / SQLite'],
    rows: [
      ...rows('granted', 'quota left: reserved and painted', 200),
      ...rows('refused', 'quota used up: refused, not painted', 429),
      ['both', 'peak RSS MB', ...cells((s) => num(Math.max(s.granted.rssPeakMb, s.refused.rssPeakMb))), ''],
    ],
  };
}

export function renderText(results: BenchResults): string {
  return tablesAsText(describeRun(results, 'run'), tables(results));
}

export function renderMarkdown(results: BenchResults, headingLevel = 2): string {
  return tablesAsMarkdown(describeRun(results, 'run'), tables(results), headingLevel);
}

/** Replaces the latest figures in `file` (docs/benchmarks.md) with those of `results`. */
export function writeFigures(file: string, results: BenchResults): void {
  writeBetween(file, markers.figures, renderMarkdown(results, 3));
}
