/**
 * The goals for this 2-core machine, judged on one run's figures. A quick run shows them but is never judged
 * on them: it only proves the benchmark works. Chat completions have no throughput goal: the text engine must
 * be correct, deterministic and linear in the prompt's length, not fast on the benchmark's own prompts (its
 * figures are still measured and shown).
 */
import type { BenchResults, TargetVerdict } from './results.ts';

const percent = (ratio: number) => `${Math.round(ratio * 100)}%`;

/**
 * @example
 *   const verdicts = judge(results); // [{ name: 'models-vs-bare', goal: '≥ 70% of bare node:http', measured: '83%', met: true }, …]
 */
export function judge(results: Omit<BenchResults, 'targets'>): TargetVerdict[] {
  const models = results.http.find((s) => s.name === 'models');
  const streams = results.streams.concurrent;
  const image = results.images.find((i) => i.size === '1024x1024' && i.n === 1);
  const rssPeak = Math.max(
    results.memory.peakMb,
    ...results.http.map((s) => s.figures.reference.rssPeakMb),
    results.streams.ttfe.rssPeakMb,
    streams.rssPeakMb,
    ...results.images.map((i) => i.rssPeakMb),
    results.conformance.rssPeakMb,
  );
  return [
    {
      name: 'GET /v1/models vs bare node:http',
      goal: '≥ 70% of bare node:http req/s',
      measured: models ? percent(models.ratios.bare) : 'not measured',
      met: (models?.ratios.bare ?? 0) >= 0.7,
    },
    {
      name: 'GET /v1/models vs Prism',
      goal: '≥ 15× Prism req/s',
      measured: models ? `${models.ratios.prism.toFixed(1)}×` : 'not measured',
      met: (models?.ratios.prism ?? 0) >= 15,
    },
    {
      name: 'concurrent streams',
      goal: '1,000 streams open at once, 0 errors, 0 lost events',
      measured: `${streams.streams} streams, ${streams.peakOpen} open at once, ${streams.errors} errors, ${streams.lost} lost`,
      met: streams.streams >= 1000 && streams.peakOpen >= 1000 && streams.errors === 0 && streams.lost === 0,
    },
    {
      name: '1024×1024 image, n = 1',
      goal: 'median < 30 ms',
      measured: image ? `${image.p50Ms.toFixed(1)} ms` : 'not measured',
      met: image !== undefined && image.non2xx === 0 && image.errors === 0 && image.p50Ms > 0 && image.p50Ms < 30,
    },
    {
      name: 'validating proxy, time to first event',
      goal: 'adds < 1 ms at p50',
      measured: results.proxy ? `+${results.proxy.ttfe.addedP50Ms.toFixed(2)} ms` : 'not measured',
      met: results.proxy !== undefined && results.proxy.ttfe.failures === 0 && results.proxy.ttfe.addedP50Ms < 1,
    },
    {
      name: "gateway in front of a model's upstream, one request",
      goal: 'adds < 1 ms at p50',
      measured: results.upstream ? `+${results.upstream.latency.gatewayAdded.p50Ms.toFixed(2)} ms (Portkey +${results.upstream.latency.portkeyAdded.p50Ms.toFixed(2)} ms)` : 'not measured',
      met: results.upstream !== undefined && results.upstream.latency.gatewayAdded.p50Ms < 1,
    },
    {
      name: "gateway in front of a model's upstream, throughput",
      goal: "≥ 3× Portkey's chat req/s",
      measured: results.upstream ? `${results.upstream.throughput.gatewayVsPortkey.toFixed(1)}×` : 'not measured',
      met: (results.upstream?.throughput.gatewayVsPortkey ?? 0) >= 3,
    },
    {
      name: 'server memory',
      goal: 'RSS < 250 MB throughout',
      measured: `${rssPeak.toFixed(0)} MB peak`,
      met: rssPeak > 0 && rssPeak < 250,
    },
  ];
}
