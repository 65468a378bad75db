/**
 * One benchmark run: the reference server, a bare `node:http` server replaying its bytes and the Prism
 * mock, each in its own process, measured side by side on loopback with the same requests; the quota path on
 * a reference server per store (memory, SQLite, PostgreSQL); the validating proxy against a direct
 * connection; and a model's upstream asked directly, through this gateway and through Portkey's.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildServer } from '../build-server.ts';
import { timeConformance } from './conformance.ts';
import { captureReplies } from './capture.ts';
import { imageLoad, keyPool } from './images.ts';
import { measureScenario, type Target } from './http.ts';
import { describeMachine } from './machine.ts';
import { startEntry, startPrism, type ServerProcess } from './processes.ts';
import { measureProxy } from './proxy.ts';
import { measureQuotaPath } from './quota.ts';
import { chatRequest, modelsRequest, repeatedChatRequest, streamRequest } from './requests.ts';
import type { BenchResults, HttpScenarioResult } from './results.ts';
import { sampleRss, type RssSampler } from './rss.ts';
import type { BenchSettings } from './settings.ts';
import { startStoreServers } from './stores.ts';
import { concurrentStreams, expectStreams, timeToFirstEvent } from './streams.ts';
import { judge } from './targets.ts';
import { measureUpstream } from './upstream.ts';

export interface RunOptions {
  settings: BenchSettings;
  /** Where the captured replies (and CPU profiles) go. */
  outDir: string;
  /** Take a CPU profile of the reference server (written to `<outDir>/profiles` when it stops). */
  cpuProfile?: boolean;
  /** Flags for `node` running the reference servers (to try one, e.g. `--max-old-space-size=1024`). */
  serverFlags?: string[];
  /** Environment variables for them besides ours (`npm start`'s, e.g. `MALLOC_ARENA_MAX`). */
  serverEnv?: Record<string, string>;
  log?: (line: string) => void;
}

/**
 * @example
 *   const results = await runBench({ settings: quickSettings, outDir: 'artifacts' });
 *   console.log(results.http[0]?.ratios);
 */
export async function runBench(options: RunOptions): Promise<BenchResults> {
  const { settings, outDir } = options;
  const log = options.log ?? (() => {});
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const startLoad = loadavg()[0] ?? 0;
  mkdirSync(outDir, { recursive: true });
  if (options.cpuProfile) rmSync(join(outDir, 'profiles'), { recursive: true, force: true }); // this run's only
  const servers: ServerProcess[] = [];
  const samplers: RssSampler[] = [];
  const track = (server: ServerProcess) => {
    servers.push(server);
    const rss = sampleRss(server.pid);
    samplers.push(rss);
    return rss;
  };

  // Prism takes seconds to start: it starts first, and a quick run measures the reference meanwhile.
  log('compiling the reference server (as npm start does), starting it and the Prism mock');
  await buildServer();
  const prismStarting = startPrism();
  prismStarting.then((p) => servers.push(p), () => {});
  // PostgreSQL, for the quota path, starts meanwhile too (a second or so; the first time as root, a copy of
  // its binaries the `postgres` user can reach).
  const postgresStarting = startEntry('postgres', 'scripts/bench/postgres-entry.ts', [], { timeoutS: 120 });
  postgresStarting.then((p) => servers.push(p), () => {});
  const sqliteDir = mkdtempSync(join(tmpdir(), 'bench-quota-'));
  try {
    const reference = await startEntry(
      'reference',
      'scripts/bench/reference-entry.ts',
      ['--image-keys', String(settings.imageKeys)],
      { compiled: true, nodeFlags: options.serverFlags, env: options.serverEnv, ...(options.cpuProfile && { cpuProfileDir: join(outDir, 'profiles') }) },
    );
    const referenceRss = track(reference);
    const startMb = referenceRss.now();
    const loadKey = reference.ready.loadKey as string;
    const imageKeys = reference.ready.imageKeys as string[];

    const scenarios = [
      { name: 'models' as const, label: 'GET /v1/models', spec: modelsRequest(loadKey) },
      { name: 'chat' as const, label: 'POST /v1/chat/completions', spec: chatRequest(loadKey) },
      { name: 'chat-repeated' as const, label: 'the same chat completion, repeated', spec: repeatedChatRequest(loadKey) },
    ];
    log('capturing the reference answers and starting the bare node:http server');
    const repliesFile = join(outDir, 'bench-replies.json');
    await captureReplies(reference.baseUrl, scenarios.slice(0, 2).map((s) => s.spec), repliesFile);
    const bare = await startEntry('bare', 'scripts/bench/bare-entry.ts', [repliesFile]);
    const bareRss = track(bare);

    let prism: Target | undefined;
    const awaitPrism = async (): Promise<Target> => {
      if (!prism) {
        log('waiting for Prism');
        const server = await prismStarting;
        const rss = sampleRss(server.pid);
        samplers.push(rss);
        prism = { name: 'prism', server, rss };
      }
      return prism;
    };
    if (settings.mode === 'full') await awaitPrism(); // nothing else runs while anything is measured

    // Streaming: the time to first event on the reference server as it runs by default (no delay between
    // tokens); many streams at once on a second one whose tokens come slowly enough for them to overlap.
    log('streams: time to first event');
    let phase = referenceRss.phase();
    const ttfe = await timeToFirstEvent(streamRequest(reference.baseUrl, loadKey, settings.streams.maxTokens), settings.streams.sequential);
    const ttfeRss = phase.end();
    log(`streams: ${settings.streams.concurrent} at once (a server with ${settings.streams.tokenDelayMs} ms between tokens)`);
    const slow = await startEntry('streams', 'scripts/bench/reference-entry.ts', ['--token-delay-ms', String(settings.streams.tokenDelayMs)], {
      compiled: true,
      nodeFlags: options.serverFlags,
      env: options.serverEnv,
    });
    const slowRss = track(slow);
    const streamTarget = streamRequest(slow.baseUrl, slow.ready.loadKey as string, settings.streams.maxTokens);
    const expected = await expectStreams(streamTarget);
    phase = slowRss.phase();
    const concurrent = await concurrentStreams(streamTarget, expected, settings.streams.concurrent);
    const concurrentRss = phase.end();
    const slowPeak = slowRss.peak;
    await slow.close();

    // Images.
    const nextKey = keyPool(imageKeys);
    const images: BenchResults['images'] = [];
    for (const imageCase of settings.images.cases) {
      log(`images: ${imageCase.size}, n = ${imageCase.n}`);
      if (settings.mode === 'full') await imageLoad(reference.baseUrl, nextKey, imageCase, { connections: 1, amount: 3 });
      phase = referenceRss.phase();
      const result = await imageLoad(reference.baseUrl, nextKey, imageCase, settings.images);
      images.push({ ...result, rssPeakMb: phase.end() });
    }

    // The quota path on each store: a server per store, stopped once measured (the database last).
    log('quota path: a reference server on each store (memory, SQLite, PostgreSQL), issuing its keys');
    const postgres = await postgresStarting;
    const storeServers = await startStoreServers({
      postgresUrl: postgres.ready.url as string,
      sqliteDir,
      settings: settings.quota,
      spawn: { nodeFlags: options.serverFlags, env: options.serverEnv },
    });
    const quotaTargets = storeServers.map((s) => ({ ...s, rss: track(s.server), ...(s.store === 'postgres' && { databasePid: postgres.pid }) }));
    const quota = await measureQuotaPath(quotaTargets, settings.quota, log);
    await Promise.all(storeServers.map((s) => s.server.close()));
    await postgres.close();

    // Requests per second, side by side.
    const targets: Target[] = [
      { name: 'reference', server: reference, rss: referenceRss },
      { name: 'bare', server: bare, rss: bareRss },
      await awaitPrism(),
    ];
    const http: HttpScenarioResult[] = [];
    for (const scenario of scenarios) http.push(await measureScenario(scenario, targets, settings.http, log));

    // The validating proxy in front of the reference (issue 28), and a gateway in front of a model's upstream,
    // this one and Portkey's (issue 29): each against the same server asked directly, in the same run.
    log('validating proxy: time to first event and the listing, directly and through it');
    const proxy = await measureProxy(reference, streamRequest(reference.baseUrl, loadKey, settings.streams.maxTokens), modelsRequest(loadKey), settings.proxy, log);
    log('upstream: a reference server directly, through this gateway and through Portkey');
    const upstream = await measureUpstream(settings.upstream, { compiled: true, nodeFlags: options.serverFlags, env: options.serverEnv }, log);

    // The conformance suite last: its destructive checks spend the demo keys' quotas.
    log('conformance suite (full profile, destructive)');
    phase = referenceRss.phase();
    const conformance = await timeConformance(reference.baseUrl);
    const conformanceRss = phase.end();

    const partial: Omit<BenchResults, 'targets'> = {
      mode: settings.mode,
      startedAt,
      elapsedS: (performance.now() - started) / 1000,
      machine: describeMachine(),
      loadAverage: [startLoad, loadavg()[0] ?? 0],
      serverFlags: options.serverFlags ?? [],
      serverEnv: options.serverEnv ?? {},
      settings: {
        httpConnections: settings.http.connections,
        httpDurationS: settings.http.durationS,
        rounds: settings.http.rounds,
        tokenDelayMs: settings.streams.tokenDelayMs,
        maxTokens: settings.streams.maxTokens,
      },
      http,
      streams: {
        ttfe: { count: settings.streams.sequential, failures: ttfe.failures, problems: ttfe.problems, p50Ms: ttfe.p50Ms, p99Ms: ttfe.p99Ms, rssPeakMb: ttfeRss },
        concurrent: { ...concurrent, rssPeakMb: concurrentRss },
      },
      images,
      quota,
      conformance: { ...conformance, rssPeakMb: conformanceRss },
      proxy,
      upstream,
      memory: { startMb, peakMb: Math.max(referenceRss.peak, slowPeak) },
    };
    return { ...partial, targets: judge(partial) };
  } finally {
    for (const rss of samplers) rss.stop();
    await prismStarting.catch(() => undefined);
    await postgresStarting.catch(() => undefined);
    await Promise.all(servers.map((s) => s.close()));
    rmSync(sqliteDir, { recursive: true, force: true });
  }
}
