/**
 * What a gateway in front of a model's upstream adds: a reference server asked directly, through this gateway
 * (a catalogue whose chat models it answers over OpenAI's Chat Completions) and through Portkey's (routed to
 * it by its headers). The time one chat request takes, one at a time, the three taking turns; and chat
 * requests per second at 50 connections, the three in turn, round after round. Each is sent the key its
 * server takes: the upstream's directly and through Portkey (which forwards it), the gateway's own through it.
 *
 * Then what a fallback after a connect error adds (decision D40): each gateway with two upstreams, the first a
 * port that refuses connections, the second the reference, against the same gateway with the reference
 * alone, the four taking turns one request at a time. This gateway's routing keeps no cool-down here (so that
 * every request meets the refusal, as Portkey's fallback, which keeps no state, does); Portkey gets the same
 * config in its `x-portkey-config` header (`strategy: fallback`, two targets).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { startPortkey } from '../lib/peer-gateways.ts';
import { builtInEntries } from '../../src/server/catalogue/catalogue.ts';
import { runLoad, type LoadSpec } from './load.ts';
import { cpuMeter, cpuTimeUs } from './machine.ts';
import { startEntry, type SpawnOptions } from './processes.ts';
import type { BenchSettings } from './settings.ts';
import { kindRequest } from './requests.ts';
import { median, percentile } from './stats.ts';

type Latency = { p50Ms: number; p99Ms: number };

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
    /** CPU µs per request of the process asked (the upstream directly, else the gateway alone), median round; null without /proc. */
    cpuUsPerRequest: { direct: number | null; gateway: number | null; portkey: number | null };
  };
  /** One request at a time, a fallback after a connect error against the same gateway with one upstream; `added`: the difference. */
  fallback: { requests: number; gateway: Latency; portkey: Latency; gatewayAdded: Latency; portkeyAdded: Latency };
}

/** A target of the one-at-a-time measurement: where, and the request with its headers. */
interface Target {
  name: string;
  baseUrl: string;
  spec: LoadSpec;
}

/** A chat request for a target: the bench's chat body, with the target's own headers. */
function chatFor(headers: Record<string, string>): LoadSpec {
  const spec = kindRequest('chat', 'unused', 1);
  return { ...spec, headers: { 'content-type': 'application/json', ...headers } };
}

/** Milliseconds one request takes (the next prompt of `spec`), its answer read whole; a non-2xx answer is an error of the run. */
async function timeOne(dispatcher: Agent, baseUrl: string, spec: LoadSpec): Promise<number> {
  const body = spec.setupRequest?.({ body: spec.body }, {})?.body ?? spec.body;
  const started = performance.now();
  const res = await request(`${baseUrl}${spec.path}`, { method: spec.method, headers: spec.headers, body, dispatcher });
  const text = await res.body.text();
  const took = performance.now() - started;
  if (res.statusCode !== 200) throw new Error(`${baseUrl}${spec.path} answered ${res.statusCode}: ${text.slice(0, 300)}`);
  return took;
}

export async function measureUpstream(settings: BenchSettings['upstream'], spawn: SpawnOptions, log: (line: string) => void): Promise<UpstreamResult> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-upstream-'));
  const started: Array<{ close(): Promise<void> }> = [];
  try {
    const upstream = await startEntry('upstream', 'scripts/bench/reference-entry.ts', [], spawn);
    started.push(upstream);
    const upstreamKey = String(upstream.ready.loadKey);
    const refused = `http://127.0.0.1:${await refusingPort()}`;
    /** A gateway whose chat models are answered by `routes` (each a model's entry without its listing's fields). */
    const gatewayOn = async (name: string, routes: (id: string) => Record<string, unknown>, args: string[] = []) => {
      const catalogue = join(dir, `${name}.json`);
      const models = builtInEntries().map((model) => (model.endpoints.includes('/v1/chat/completions') ? { ...model, ...routes(model.id) } : model));
      writeFileSync(catalogue, JSON.stringify({ models }));
      const server = await startEntry(name, 'scripts/bench/reference-entry.ts', ['--catalogue', catalogue, ...args], { ...spawn, env: { ...spawn.env, BENCH_UPSTREAM_KEY: upstreamKey } });
      started.push(server);
      return server;
    };
    const at = (origin: string, model: string) => ({ protocol: 'openai-chat', base_url: `${origin}/v1`, api_key_env: 'BENCH_UPSTREAM_KEY', model });
    const gateway = await gatewayOn('gateway', (id) => ({ upstream: at(upstream.baseUrl, id) }));
    // Its warning for each request that failed over (which a cool-down would soon make rare) is not written.
    const fallbackGateway = await gatewayOn(
      'gateway-fallback',
      (id) => ({
        upstreams: [{ name: 'refused', ...at(refused, id) }, { name: 'reference', ...at(upstream.baseUrl, id) }],
        routing: { strategy: 'fallback', cooldown: { failures: 1_000_000_000 } },
      }),
      ['--log-level', 'error'],
    );
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

    const [direct, viaGateway, viaPortkey] = await inTurns(targets, settings.sequential);
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
        const meter = cpuMeter(() => (pid === undefined ? undefined : cpuTimeUs(pid)));
        const result = await runLoad(targets[t]!.baseUrl, targets[t]!.spec, { connections: settings.connections, durationS: settings.durationS });
        const perRequest = meter.perRequest(result.requests);
        if (perRequest !== null) cpu[t]!.push(perRequest);
        if (result.non2xx > 0 || result.errors > 0) throw new Error(`${targets[t]!.name}: ${result.non2xx} non-2xx answers (${JSON.stringify(result.statuses)}), ${result.errors} errors`);
        rps[t]!.push(result.rps);
      }
    }
    const [directRps, gatewayRps, portkeyRps] = rps.map(median) as [number, number, number];
    const cpuOf = (t: number) => (cpu[t]!.length > 0 ? median(cpu[t]!) : null);

    log('upstream: a fallback after a connect error, through this gateway and through Portkey');
    const portkeyConfig = JSON.stringify({
      strategy: { mode: 'fallback' },
      targets: [refused, upstream.baseUrl].map((origin) => ({ provider: 'openai', api_key: upstreamKey, custom_host: `${origin}/v1` })),
    });
    const fallbacks = [
      targets[1],
      { name: 'gateway-fallback', baseUrl: fallbackGateway.baseUrl, spec: chatFor({ 'x-api-key': String(fallbackGateway.ready.loadKey) }) },
      targets[2],
      { name: 'portkey-fallback', baseUrl: portkey.baseUrl, spec: chatFor({ 'x-portkey-config': portkeyConfig }) },
    ] as const;
    for (const target of [fallbacks[1], fallbacks[3]]) await runLoad(target.baseUrl, target.spec, { connections: settings.connections, durationS: 2 });
    const [single, failedOver, portkeySingle, portkeyFailedOver] = await inTurns(fallbacks, settings.sequential);
    const minus = (a: Latency, b: Latency): Latency => ({ p50Ms: a.p50Ms - b.p50Ms, p99Ms: a.p99Ms - b.p99Ms });
    log(`upstream: fallback after a connect error, p50 gateway ${failedOver.p50Ms.toFixed(2)} ms (one upstream ${single.p50Ms.toFixed(2)}), portkey ${portkeyFailedOver.p50Ms.toFixed(2)} ms (one upstream ${portkeySingle.p50Ms.toFixed(2)})`);
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
        cpuUsPerRequest: { direct: cpuOf(0), gateway: cpuOf(1), portkey: cpuOf(2) },
      },
      fallback: { requests: settings.sequential, gateway: failedOver, portkey: portkeyFailedOver, gatewayAdded: minus(failedOver, single), portkeyAdded: minus(portkeyFailedOver, portkeySingle) },
    };
  } finally {
    for (const server of started.reverse()) await server.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Each target's latency, `count` requests one at a time over one keep-alive connection each (as one client
 * calling one server has), in turns of BLOCK requests: a path asked once in a few waits for its processes to
 * be woken and scheduled again each time (what a gateway asked once in a while pays, but not what it adds);
 * turns still spread a slower moment of the machine over all of them. The first turn warms each path up
 * (connections, compiled code) and is not counted.
 */
async function inTurns<T extends readonly Target[]>(targets: T, count: number): Promise<{ [K in keyof T]: Latency }> {
  const agents = targets.map(() => new Agent({ connections: 1 }));
  const times: number[][] = targets.map(() => []);
  const BLOCK = 20;
  try {
    for (let i = 0; i < count + BLOCK; i += BLOCK) {
      for (const [t, target] of targets.entries()) {
        for (let j = i; j < Math.min(i + BLOCK, count + BLOCK); j++) {
          const ms = await timeOne(agents[t]!, target.baseUrl, target.spec);
          if (i >= BLOCK) times[t]!.push(ms);
        }
      }
    }
  } finally {
    await Promise.all(agents.map((agent) => agent.close()));
  }
  return times.map((t) => ({ p50Ms: percentile(t, 50), p99Ms: percentile(t, 99) })) as { [K in keyof T]: Latency };
}

/** A port on 127.0.0.1 that refuses connections: one the system handed out, let go again. */
async function refusingPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
