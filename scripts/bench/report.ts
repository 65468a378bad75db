/**
 * One run's figures as tables: printed to the terminal and written as Markdown (`artifacts/bench.md`,
 * and the figures part of `docs/benchmarks.md`). The same tables in both, so the docs say what was printed.
 */
import { storeLabels, targetLabels, type BenchResults, type QuotaFigure, type StoreName, type TargetName } from './results.ts';
import { round } from './stats.ts';

export interface Table {
  title: string;
  headers: string[];
  rows: string[][];
}

const targets: TargetName[] = ['reference', 'bare', 'prism'];
const stores: StoreName[] = ['memory', 'sqlite', 'postgres'];
const num = (value: number) => round(value).toLocaleString('en-US');
const ms = (value: number) => `${round(value)}`;
const cpu = (us: number | null) => (us === null ? '–' : String(Math.round(us)));
const cpuRatio = (a: number | null, b: number | null) => (a === null || b === null || b === 0 ? '' : `${(a / b).toFixed(1)}×`);

/** The run as tables, each with a title. */
function tables(results: BenchResults): Table[] {
  const { settings } = results;
  const http: Table = {
    title: `HTTP: ${settings.httpConnections} connections, ${settings.rounds} round(s) of ${settings.httpDurationS} s per server, medians`,
    headers: ['Request', 'Figure', ...targets.map((t) => targetLabels[t]), 'reference / bare', 'reference / Prism'],
    rows: results.http.flatMap((scenario) => {
      const f = scenario.figures;
      return [
        [scenario.label, 'req/s', ...targets.map((t) => num(f[t].rps)), `${Math.round(scenario.ratios.bare * 100)}%`, `${scenario.ratios.prism.toFixed(1)}×`],
        ['', 'p50 ms', ...targets.map((t) => ms(f[t].p50Ms)), '', ''],
        ['', 'p99 ms', ...targets.map((t) => ms(f[t].p99Ms)), '', ''],
        ['', 'server CPU µs/req', ...targets.map((t) => cpu(f[t].cpuUsPerRequest)), cpuRatio(f.reference.cpuUsPerRequest, f.bare.cpuUsPerRequest), cpuRatio(f.reference.cpuUsPerRequest, f.prism.cpuUsPerRequest)],
        ['', 'peak RSS MB', ...targets.map((t) => num(f[t].rssPeakMb)), '', ''],
        ['', 'errors / non-2xx', ...targets.map((t) => `${f[t].errors} / ${f[t].non2xx}`), '', ''],
      ];
    }),
  };

  const { ttfe, concurrent } = results.streams;
  const streams: Table = {
    title: `Streaming chat completions (reference, up to ${settings.maxTokens} tokens per answer)`,
    headers: ['Measure', 'Result', 'Time to first event p50 / p99 ms', 'peak RSS MB'],
    rows: [
      [`${ttfe.count} different requests, one after the other`, `${ttfe.count - ttfe.failures} complete, ${ttfe.failures} failed`, `${ms(ttfe.p50Ms)} / ${ms(ttfe.p99Ms)}`, num(ttfe.rssPeakMb)],
      [
        `${concurrent.streams} streams at once (${settings.tokenDelayMs} ms between tokens)`,
        `${concurrent.complete} complete (${concurrent.eventsPerStream} events each, [DONE] last), ${concurrent.errors} errors, ` +
          `${concurrent.lost} lost; ${concurrent.peakOpen} open at once; all done in ${round(concurrent.durationMs / 1000)} s`,
        `${ms(concurrent.ttfeP50Ms)} / ${ms(concurrent.ttfeP99Ms)}`,
        num(concurrent.rssPeakMb),
      ],
    ],
  };

  const images: Table = {
    title: 'Image generation (reference, one request at a time)',
    headers: ['Size', 'n', 'median ms', 'p99 ms', 'images/s', 'requests', 'errors / non-2xx', 'peak RSS MB'],
    rows: results.images.map((i) => [i.size, String(i.n), ms(i.p50Ms), ms(i.p99Ms), num(i.imagesPerSecond), String(i.requests), `${i.errors} / ${i.non2xx}`, num(i.rssPeakMb)]),
  };

  const c = results.conformance;
  const quota = results.quota && quotaTable(results.quota);
  const other: Table = {
    title: 'Conformance suite and memory (reference)',
    headers: ['Measure', 'Result'],
    rows: [
      ['Conformance suite, full profile, destructive', `${round(c.durationS)} s (${c.passed} passed, ${c.failed} failed; ${c.how}); peak RSS ${num(c.rssPeakMb)} MB`],
      ['Server RSS after start', `${num(results.memory.startMb)} MB`],
      ['Server RSS, peak of the whole run', `${num(results.memory.peakMb)} MB`],
    ],
  };

  const added = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(2)}`;
  const proxy: Table | undefined = results.proxy && {
    title: 'The validating proxy (gateway-conformance proxy) in front of the reference, against it directly',
    headers: ['Measure', 'direct', 'through the proxy', 'added / ratio'],
    rows: [
      ['Streamed chat, time to first event p50 ms', ms(results.proxy.ttfe.direct.p50Ms), ms(results.proxy.ttfe.proxied.p50Ms), added(results.proxy.ttfe.addedP50Ms)],
      ['Streamed chat, time to first event p99 ms', ms(results.proxy.ttfe.direct.p99Ms), ms(results.proxy.ttfe.proxied.p99Ms), added(results.proxy.ttfe.addedP99Ms)],
      [`GET /v1/models req/s, ${results.proxy.models.connections} connections`, num(results.proxy.models.directRps), num(results.proxy.models.proxiedRps), `${Math.round(results.proxy.models.ratio * 100)}%`],
    ],
  };
  const u = results.upstream;
  const upstream: Table | undefined = u && {
    title: `A model's upstream (a reference server, OpenAI chat completions, not streamed): directly, through this gateway, through ${u.portkey}`,
    headers: ['Measure', 'direct', 'this gateway', 'Portkey', 'gateway / Portkey'],
    rows: [
      [`One request at a time (${u.latency.requests} each, in turn), p50 ms`, ms(u.latency.direct.p50Ms), ms(u.latency.gateway.p50Ms), ms(u.latency.portkey.p50Ms), ''],
      ['… added to a request, p50 ms', '', added(u.latency.gatewayAdded.p50Ms), added(u.latency.portkeyAdded.p50Ms), ''],
      ['One request at a time, p99 ms', ms(u.latency.direct.p99Ms), ms(u.latency.gateway.p99Ms), ms(u.latency.portkey.p99Ms), ''],
      ['… added to a request, p99 ms', '', added(u.latency.gatewayAdded.p99Ms), added(u.latency.portkeyAdded.p99Ms), ''],
      [`req/s at ${u.throughput.connections} connections (median round)`, num(u.throughput.directRps), num(u.throughput.gatewayRps), num(u.throughput.portkeyRps), `${u.throughput.gatewayVsPortkey.toFixed(1)}×`],
      ...(u.throughput.cpuUsPerRequest
        ? [[
            'CPU µs per request of the process asked (direct: the upstream; else the gateway alone)',
            cpu(u.throughput.cpuUsPerRequest.direct),
            cpu(u.throughput.cpuUsPerRequest.gateway),
            cpu(u.throughput.cpuUsPerRequest.portkey),
            cpuRatio(u.throughput.cpuUsPerRequest.gateway, u.throughput.cpuUsPerRequest.portkey),
          ]]
        : []),
    ],
  };

  const judged = results.mode === 'full';
  const goals: Table = {
    title: judged ? 'Targets' : 'Targets (quick run: shown, not judged)',
    headers: ['Target', 'Goal', 'Measured', judged ? 'Met' : 'Met (not judged)'],
    rows: results.targets.map((t) => [t.name, t.goal, t.measured, t.met ? 'yes' : 'NO']),
  };
  return [http, streams, images, ...(quota ? [quota] : []), ...(proxy ? [proxy] : []), ...(upstream ? [upstream] : []), other, goals];
}

/** The quota path: both cases on each store, side by side, and what each store counted. */
function quotaTable(quota: NonNullable<BenchResults['quota']>): Table {
  const of = (store: StoreName) => quota.stores.find((s) => s.store === store);
  const cells = (show: (s: NonNullable<ReturnType<typeof of>>) => string) => stores.map((store) => {
    const result = of(store);
    return result ? show(result) : '–';
  });
  const rows = (name: 'granted' | 'refused', label: string, status: number): string[][] => {
    const f = (store: StoreName): QuotaFigure | undefined => of(store)?.[name];
    const pg = f('postgres');
    const sqlite = f('sqlite');
    const other = (figure: QuotaFigure) => Object.entries(figure.statuses).reduce((n, [s, count]) => (Number(s) === status ? n : n + count), 0);
    return [
      [label, 'req/s', ...cells((s) => num(s[name].rps)), `${quota.ratios[name].toFixed(2)}×`],
      ['', 'p50 ms', ...cells((s) => ms(s[name].p50Ms)), ''],
      ['', 'p99 ms', ...cells((s) => ms(s[name].p99Ms)), ''],
      ['', 'server CPU µs/req', ...cells((s) => cpu(s[name].cpuUsPerRequest)), cpuRatio(pg?.cpuUsPerRequest ?? null, sqlite?.cpuUsPerRequest ?? null)],
      ['', 'database CPU µs/req', ...cells((s) => cpu(s[name].databaseCpuUsPerRequest)), ''],
      ['', `errors / not ${status}`, ...cells((s) => `${s[name].errors} / ${other(s[name])}`), ''],
    ];
  };
  return {
    title: `Quota path: POST /v1/generation/image, ${quota.size}, n = 1, ${quota.connections} connections, ${quota.rounds} round(s) of ${quota.amount !== undefined ? `${quota.amount} requests` : `${quota.durationS} s`} per store, medians`,
    headers: ['Keys', 'Figure', ...stores.map((s) => storeLabels[s]), 'PostgreSQL / SQLite'],
    rows: [
      ...rows('granted', 'quota left: reserved and painted', 200),
      ...rows('refused', 'quota used up: refused, not painted', 429),
      ['both', 'peak RSS MB', ...cells((s) => num(s.rssPeakMb)), ''],
      ['', 'images counted / 200s / sent', ...cells((s) => `${s.check.imagesCounted} / ${s.check.answered200} / ${s.check.sent}`), ''],
    ],
  };
}

/** The machine and run, in one line (with the load average at its start and end: how shared the machine was). */
export function describeRun(results: BenchResults): string {
  const m = results.machine;
  const load = results.loadAverage.map((l) => l.toFixed(1)).join(' → ');
  const launch = [...Object.entries(results.serverEnv ?? {}).map(([name, value]) => `${name}=${value}`), ...results.serverFlags];
  const flags = launch.length > 0 ? `; reference servers run with ${launch.join(' ')}` : '';
  return `${results.mode} run of ${results.startedAt}, ${round(results.elapsedS)} s: ${m.cores} cores (${m.cpu}), ${m.memoryGb} GB, Node ${m.node}, ${m.os}; load average ${load}${flags}`;
}

/**
 * The report for a terminal: aligned columns.
 *
 * @example
 *   console.log(renderText(results));
 */
export function renderText(results: BenchResults): string {
  return tablesAsText(describeRun(results), tables(results));
}

/**
 * The same tables as Markdown.
 *
 * @example
 *   writeFileSync('artifacts/bench.md', renderMarkdown(results));
 */
export function renderMarkdown(results: BenchResults, headingLevel = 2): string {
  return tablesAsMarkdown(describeRun(results), tables(results), headingLevel);
}

/** Tables with aligned columns, after a line that says what run they are of. */
export function tablesAsText(intro: string, tables: readonly Table[]): string {
  const parts = [intro];
  for (const table of tables) {
    const all = [table.headers, ...table.rows];
    const widths = table.headers.map((_, i) => Math.max(...all.map((row) => (row[i] ?? '').length)));
    const line = (row: string[]) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd();
    parts.push(`\n${table.title}\n${line(table.headers)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n${table.rows.map(line).join('\n')}`);
  }
  return parts.join('\n');
}

/** The same tables as Markdown, each under a heading of `headingLevel`. */
export function tablesAsMarkdown(intro: string, tables: readonly Table[], headingLevel = 2): string {
  const hashes = '#'.repeat(headingLevel);
  const parts = [`_${intro}_`];
  for (const table of tables) {
    const escape = (cell: string) => cell.replaceAll('|', '\\|');
    const row = (cells: string[]) => `| ${cells.map(escape).join(' | ')} |`;
    // Figures are right-aligned, words left-aligned.
    const numeric = (i: number) => table.rows.every((r) => /^[\d.,/ %×–-]*$/.test(r[i] ?? ''));
    const rule = table.headers.map((_, i) => (i > 0 && numeric(i) ? '---:' : '---')).join('|');
    parts.push(`${hashes} ${table.title}\n\n${row(table.headers)}\n|${rule}|\n${table.rows.map(row).join('\n')}`);
  }
  return `${parts.join('\n\n')}\n`;
}
