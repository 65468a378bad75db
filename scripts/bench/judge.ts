/**
 * What a run's figures say: which measurements did not work (every figure above zero, no error), which
 * decides every run, quick ones included; and the goals a full run on this 2-core machine is judged by.
 */
import type { CompareResults } from './compare.ts';
import type { ServerFigure } from './http.ts';
import type { BenchResults, TargetVerdict } from './results.ts';

/** What did not work in one server's figures: no figure, connection errors, and (unless other statuses are expected) answers other than 2xx. */
function figureProblems(where: string, f: ServerFigure | undefined, only2xx = true): string[] {
  if (!f) return [];
  const kinds = Object.entries(f.errorKinds).map(([k, n]) => `${n} × ${k}`).join(', ');
  return [
    ...(f.rps > 0 && f.p50Ms > 0 ? [] : [`${where}: no figure`]),
    ...(f.errors > 0 ? [`${where}: ${f.errors} connection errors (${kinds})`] : []),
    ...(only2xx && f.non2xx > 0 ? [`${where}: ${f.non2xx} non-2xx answers`] : []),
  ];
}

/** What did not work in a run, in words; empty when everything did. */
export function brokenMeasurements(results: BenchResults): string[] {
  const broken: string[] = [];
  for (const scenario of results.http) {
    for (const [target, f] of Object.entries(scenario.figures)) broken.push(...figureProblems(`${scenario.label} on ${target}`, f));
  }
  const { ttfe, concurrent } = results.streams;
  if (!(ttfe.p50Ms > 0) || ttfe.failures > 0) broken.push(`time to first event: ${ttfe.failures} of ${ttfe.count} streams failed (${ttfe.problems.join('; ')})`);
  for (const c of concurrent) {
    if (c.errors + c.lost > 0 || c.complete !== c.streams) broken.push(`${c.streams} streams at once: ${c.errors} errors, ${c.lost} lost (${c.problems.join('; ')})`);
  }
  for (const image of results.images) {
    const where = `images ${image.size} n=${image.n}`;
    if (!(image.p50Ms > 0 && image.imagesPerSecond > 0)) broken.push(`${where}: no figure`);
    if (image.errors + image.non2xx > 0) broken.push(`${where}: ${image.errors} errors, ${image.non2xx} non-2xx answers`);
  }
  for (const store of results.quota.stores) {
    for (const name of ['granted', 'refused'] as const) broken.push(...figureProblems(`quota path on ${store.store}, ${name}`, store[name], false));
    for (const problem of store.problems) broken.push(`quota path on ${store.store}: ${problem}`);
  }
  const { proxy, upstream } = results;
  if (proxy.ttfe.failures > 0) broken.push(`validating proxy: ${proxy.ttfe.failures} failed streams or requests`);
  if (!(proxy.ttfe.proxied.p50Ms > 0 && proxy.models.proxiedRps > 0)) broken.push('validating proxy: no figure');
  if (!(upstream.latency.gateway.p50Ms > 0 && upstream.latency.portkey.p50Ms > 0 && upstream.throughput.gatewayRps > 0 && upstream.throughput.portkeyRps > 0)) {
    broken.push("a model's upstream: no figure");
  }
  if (!(results.memory.peakMb > 0)) broken.push('server memory: no sample');
  return broken;
}

/** What did not work in a comparison of builds, in words; empty when everything did. */
export function brokenComparison(results: CompareResults): string[] {
  return results.kinds.flatMap((k) => {
    const servers = { 'this tree': k.current, baseline: k.baseline, bare: k.bare, 'Fastify alone': k.fastify };
    return Object.entries(servers).flatMap(([name, f]) => figureProblems(`${k.label} on ${name}`, f));
  });
}

const percent = (ratio: number) => `${Math.round(ratio * 100)}%`;

/**
 * The goals of a full run. Chat completions have no throughput goal: the text engine must be correct,
 * deterministic and linear in the prompt's length, not fast on the benchmark's own prompts.
 */
export function judge(results: Omit<BenchResults, 'targets'>): TargetVerdict[] {
  const models = results.http.find((s) => s.name === 'models');
  const streams = results.streams.concurrent.find((c) => c.streams >= 1000) ?? results.streams.concurrent.at(-1);
  const image = results.images.find((i) => i.size === '1024x1024' && i.n === 1);
  const { proxy, upstream } = results;
  const rssPeak = Math.max(
    results.memory.peakMb,
    ...results.http.map((s) => s.figures.reference.rssPeakMb),
    results.streams.ttfe.rssPeakMb,
    ...results.streams.concurrent.map((c) => c.rssPeakMb),
    ...results.images.map((i) => i.rssPeakMb),
  );
  const verdict = (name: string, goal: string, measured: string, met: boolean): TargetVerdict => ({ name, goal, measured, met });
  return [
    verdict('GET /v1/models vs bare node:http', '≥ 70% of bare node:http req/s', models ? percent(models.ratios.bare) : 'not measured', (models?.ratios.bare ?? 0) >= 0.7),
    verdict(
      'concurrent streams',
      '1,000 streams open at once, 0 errors, 0 lost events',
      streams ? `${streams.streams} streams, ${streams.peakOpen} open at once, ${streams.errors} errors, ${streams.lost} lost` : 'not measured',
      streams !== undefined && streams.peakOpen >= 1000 && streams.errors + streams.lost === 0,
    ),
    verdict('1024×1024 image, n = 1', 'median < 30 ms', image ? `${image.p50Ms.toFixed(1)} ms` : 'not measured', !!image && image.non2xx + image.errors === 0 && image.p50Ms > 0 && image.p50Ms < 30),
    verdict('validating proxy, time to first event', 'adds < 1 ms at p50', `+${proxy.ttfe.addedP50Ms.toFixed(2)} ms`, proxy.ttfe.failures === 0 && proxy.ttfe.addedP50Ms < 1),
    verdict(
      "gateway in front of a model's upstream, one request",
      'adds < 1 ms at p50',
      `+${upstream.latency.gatewayAdded.p50Ms.toFixed(2)} ms (Portkey +${upstream.latency.portkeyAdded.p50Ms.toFixed(2)} ms)`,
      upstream.latency.gatewayAdded.p50Ms < 1,
    ),
    verdict("gateway in front of a model's upstream, throughput", "≥ 3× Portkey's chat req/s", `${upstream.throughput.gatewayVsPortkey.toFixed(1)}×`, upstream.throughput.gatewayVsPortkey >= 3),
    verdict('server memory', 'RSS < 250 MB throughout', `${rssPeak.toFixed(0)} MB peak`, rssPeak > 0 && rssPeak < 250),
  ];
}
