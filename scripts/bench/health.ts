/**
 * Whether every measurement of a run worked, whatever its speed: each has a figure above zero and saw no
 * error. This, not any target, decides a quick (CI) run.
 */
import type { BenchResults } from './results.ts';

/**
 * What did not work, in words; empty when everything did.
 *
 * @example
 *   brokenMeasurements(results) // ['POST /v1/chat/completions on Prism mock: 12 non-2xx answers']
 */
export function brokenMeasurements(results: BenchResults): string[] {
  const broken: string[] = [];
  for (const scenario of results.http) {
    for (const [target, f] of Object.entries(scenario.figures)) {
      const where = `${scenario.label} on ${target}`;
      if (!(f.rps > 0 && f.p50Ms > 0 && f.p99Ms > 0)) broken.push(`${where}: no figure`);
      if (f.errors > 0) broken.push(`${where}: ${f.errors} connection errors (${Object.entries(f.errorKinds).map(([k, n]) => `${n} × ${k}`).join(', ')})`);
      if (f.non2xx > 0) broken.push(`${where}: ${f.non2xx} non-2xx answers`);
    }
  }
  const { ttfe, concurrent } = results.streams;
  if (!(ttfe.p50Ms > 0) || ttfe.failures > 0) broken.push(`time to first event: ${ttfe.failures} of ${ttfe.count} streams failed (${ttfe.problems.join('; ')})`);
  if (concurrent.errors + concurrent.lost > 0 || concurrent.complete !== concurrent.streams) {
    broken.push(`concurrent streams: ${concurrent.errors} errors, ${concurrent.lost} lost (${concurrent.problems.join('; ')})`);
  }
  for (const image of results.images) {
    const where = `images ${image.size} n=${image.n}`;
    if (!(image.p50Ms > 0 && image.imagesPerSecond > 0)) broken.push(`${where}: no figure`);
    if (image.errors + image.non2xx > 0) broken.push(`${where}: ${image.errors} errors, ${image.non2xx} non-2xx answers`);
  }
  if (!results.quota) broken.push('quota path: not measured');
  for (const store of results.quota?.stores ?? []) {
    for (const name of ['granted', 'refused'] as const) {
      const f = store[name];
      if (!(f.rps > 0 && f.p50Ms > 0 && f.p99Ms > 0)) broken.push(`quota path on ${store.store}, ${name}: no figure`);
    }
    for (const problem of store.problems) broken.push(`quota path on ${store.store}: ${problem}`);
  }
  const proxy = results.proxy;
  if (!proxy) broken.push('validating proxy: not measured');
  else {
    if (proxy.ttfe.failures > 0) broken.push(`validating proxy: ${proxy.ttfe.failures} failed streams or requests`);
    if (!(proxy.ttfe.proxied.p50Ms > 0 && proxy.models.proxiedRps > 0)) broken.push('validating proxy: no figure');
  }
  const upstream = results.upstream;
  if (!upstream) broken.push("a model's upstream: not measured");
  else if (!(upstream.latency.gateway.p50Ms > 0 && upstream.latency.portkey.p50Ms > 0 && upstream.throughput.gatewayRps > 0 && upstream.throughput.portkeyRps > 0)) {
    broken.push("a model's upstream: no figure");
  }
  if (!(results.conformance.durationS > 0)) broken.push('conformance suite: no run time');
  if (!(results.memory.peakMb > 0)) broken.push('server memory: no sample');
  return broken;
}
