/**
 * What a gateway in front of a model's upstream adds (issue 29), measured in one run on one upstream: a
 * reference server (compiled, as `npm start` runs it) asked directly, through this gateway (a catalogue whose
 * chat models are answered by it over OpenAI's Chat Completions), and through Portkey's gateway (routed to it
 * by its headers). Two figures:
 *
 * - the time one chat request takes, one request at a time, the three taking turns of 20 requests (so that
 *   a slower moment of the machine falls on all three alike): what each gateway adds at p50 and p99;
 * - non-streamed chat requests per second at 50 connections, the three in turn, round after round.
 *
 * The same request body goes to all three (a short prompt whose words differ per request), each with the key
 * its server takes: the upstream's own key directly and through Portkey (which forwards the caller's), the
 * gateway's own key through the gateway (which uses the upstream's from its environment).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { startPortkey } from '../lib/peer-gateways.ts';
import { builtInEntries } from '../../src/server/catalogue/catalogue.ts';
import { cpuTimeUs } from './cpu.ts';
import { runLoad, type LoadSpec } from './load.ts';
import { startEntry, type ServerProcess, type SpawnOptions } from './processes.ts';
import { chatRequest, withId } from './requests.ts';
import { percentile } from './stats.ts';

export interface UpstreamSettings {
  /** Requests each, one at a time, for the latencies. */
  sequential: number;
  rounds: number;
  connections: number;
  durationS: number;
}

interface Latency {
  p50Ms: number;
  p99Ms: number;
}

export interface UpstreamResult {
  portkey: string;
  latency: { requests: number; direct: Latency; gateway: Latency; portkey: Latency; gatewayAdded: Latency; portkeyAdded: Latency };
  throughput: {
    connections: number;
    directRps: number;
    gatewayRps: number;
    portkeyRps: number;
    gatewayVsPortkey: number;
    gatewayVsDirect: number;
    /**
     * CPU time (user + system) per answered request of the process each load was sent to, in µs, the median
     * of the rounds: the upstream's own when asked directly, each gateway's own in front of it (what the
     * gateway costs, beside what the answer costs the upstream); null without /proc.
     */
    cpuUsPerRequest: { direct: number | null; gateway: number | null; portkey: number | null };
  };
}

const median = (values: number[]) => percentile(values, 50);

/** A chat request for a target: the bench's chat body, with the target's own headers. */
function chatFor(headers: Record<string, string>): LoadSpec {
  const spec = chatRequest('unused');
  return { ...spec, headers: { 'content-type': 'application/json', ...headers } };
}

/** Milliseconds one request takes, its answer read whole; a non-2xx answer is an error of the run. */
async function timeOne(dispatcher: Agent, baseUrl: string, spec: LoadSpec, id: string): Promise<number> {
  const started = performance.now();
  const res = await request(`${baseUrl}${spec.path}`, { method: spec.method, headers: spec.headers, body: withId(spec.body!, id), dispatcher });
  const text = await res.body.text();
  const took = performance.now() - started;
  if (res.statusCode !== 200) throw new Error(`${baseUrl}${spec.path} answered ${res.statusCode}: ${text.slice(0, 300)}`);
  return took;
}

/**
 * @example
 *   const upstream = await measureUpstream({ sequential: 300, rounds: 5, connections: 50, durationS: 3 }, { compiled: true }, console.error);
 */
export async function measureUpstream(settings: UpstreamSettings, spawn: SpawnOptions, log: (line: string) => void): Promise<UpstreamResult> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-upstream-'));
  const started: Array<{ close(): Promise<void> }> = [];
  try {
    const upstream = await startEntry('upstream', 'scripts/bench/reference-entry.ts', [], spawn);
    started.push(upstream);
    const upstreamKey = String(upstream.ready.loadKey);
    const catalogue = join(dir, 'catalogue.json');
    const models = builtInEntries().map((model) =>
      model.endpoints.includes('/v1/chat/completions')
        ? { ...model, upstream: { protocol: 'openai-chat', base_url: `${upstream.baseUrl}/v1`, api_key_env: 'BENCH_UPSTREAM_KEY', model: model.id } }
        : model,
    );
    writeFileSync(catalogue, JSON.stringify({ models }));
    const gateway: ServerProcess = await startEntry('gateway', 'scripts/bench/reference-entry.ts', ['--catalogue', catalogue], {
      ...spawn,
      env: { ...spawn.env, BENCH_UPSTREAM_KEY: upstreamKey },
    });
    started.push(gateway);
    const portkey = await startPortkey({ startTimeoutMs: 60_000 });
    started.push(portkey);

    const targets = [
      { name: 'direct', baseUrl: upstream.baseUrl, spec: chatFor({ 'x-api-key': upstreamKey }) },
      { name: 'gateway', baseUrl: gateway.baseUrl, spec: chatFor({ 'x-api-key': String(gateway.ready.loadKey) }) },
      { name: 'portkey', baseUrl: portkey.baseUrl, spec: chatFor({ authorization: `Bearer ${upstreamKey}`, ...portkey.headers('openai', upstream.baseUrl) }) },
    ] as const;

    // Each path warmed up first under load (its code compiled by V8's optimising tiers, its connections
    // open): a few hundred requests one at a time would measure mostly the interpreter.
    for (const target of targets) await runLoad(target.baseUrl, target.spec, { connections: settings.connections, durationS: 2 });

    // One keep-alive connection per target, as one client calling one server has.
    const agents = targets.map(() => new Agent({ connections: 1 }));
    const times: number[][] = targets.map(() => []);
    // In turns of BLOCK requests each: a path asked once in three waits for its processes to be woken and
    // scheduled again each time (what a gateway asked once in a while pays, but not what it adds); turns
    // still spread a slower moment of the machine over all three.
    const BLOCK = 20;
    for (let i = 0; i < settings.sequential + BLOCK; i += BLOCK) {
      for (const [t, target] of targets.entries()) {
        for (let j = i; j < Math.min(i + BLOCK, settings.sequential + BLOCK); j++) {
          const ms = await timeOne(agents[t]!, target.baseUrl, target.spec, `${j}-${Math.random().toString(36).slice(2)}`);
          // The first turn warms each path up (connections, compiled code): not counted.
          if (i >= BLOCK) times[t]!.push(ms);
        }
      }
    }
    await Promise.all(agents.map((agent) => agent.close()));
    const latencyOf = (t: number): Latency => ({ p50Ms: percentile(times[t]!, 50), p99Ms: percentile(times[t]!, 99) });
    const [direct, viaGateway, viaPortkey] = [latencyOf(0), latencyOf(1), latencyOf(2)];
    log(`upstream: one at a time, p50 direct ${direct.p50Ms.toFixed(2)} ms, gateway ${viaGateway.p50Ms.toFixed(2)} ms, portkey ${viaPortkey.p50Ms.toFixed(2)} ms`);

    const rps: number[][] = targets.map(() => []);
    const pids = [upstream.pid, gateway.pid, portkey.pid];
    const cpu: number[][] = targets.map(() => []);
    for (let round = 1; round <= settings.rounds; round++) {
      log(`upstream: ${settings.connections} connections, round ${round} of ${settings.rounds}`);
      // Each round in another order, so that no target always follows the same one.
      const order = targets.map((_, t) => (t + round) % targets.length);
      for (const t of order) {
        const pid = pids[t];
        const before = pid === undefined ? undefined : cpuTimeUs(pid);
        const result = await runLoad(targets[t]!.baseUrl, targets[t]!.spec, { connections: settings.connections, durationS: settings.durationS });
        const after = pid === undefined ? undefined : cpuTimeUs(pid);
        if (before !== undefined && after !== undefined && result.requests > 0) cpu[t]!.push((after - before) / result.requests);
        if (result.non2xx > 0 || result.errors > 0) throw new Error(`${targets[t]!.name}: ${result.non2xx} non-2xx answers (${JSON.stringify(result.statuses)}), ${result.errors} errors`);
        rps[t]!.push(result.rps);
      }
    }
    const [directRps, gatewayRps, portkeyRps] = rps.map(median) as [number, number, number];
    return {
      portkey: portkey.name,
      latency: {
        requests: settings.sequential,
        direct,
        gateway: viaGateway,
        portkey: viaPortkey,
        gatewayAdded: { p50Ms: viaGateway.p50Ms - direct.p50Ms, p99Ms: viaGateway.p99Ms - direct.p99Ms },
        portkeyAdded: { p50Ms: viaPortkey.p50Ms - direct.p50Ms, p99Ms: viaPortkey.p99Ms - direct.p99Ms },
      },
      throughput: {
        connections: settings.connections,
        directRps,
        gatewayRps,
        portkeyRps,
        gatewayVsPortkey: gatewayRps / portkeyRps,
        gatewayVsDirect: gatewayRps / directRps,
        cpuUsPerRequest: {
          direct: cpu[0]!.length > 0 ? median(cpu[0]!) : null,
          gateway: cpu[1]!.length > 0 ? median(cpu[1]!) : null,
          portkey: cpu[2]!.length > 0 ? median(cpu[2]!) : null,
        },
      },
    };
  } finally {
    for (const server of started.reverse()) await server.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}
