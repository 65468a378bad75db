/**
 * One full or quick run: the reference server and a bare `node:http` server replaying its bytes, each in its
 * own process, side by side on loopback with the same requests; streams, one after the other and many at once;
 * images; the quota path on a reference server per store; the validating proxy against a direct connection;
 * and a model's upstream asked directly, through this gateway and through Portkey's.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildServer } from '../build-server.ts';
import { measureScenario, type HttpScenarioResult } from './http.ts';
import { imageLoad, imagesPerKey, keyRotation } from './images.ts';
import { judge } from './judge.ts';
import { sampleRss, startRun, type RssSampler } from './machine.ts';
import { startEntry, type ServerProcess, type SpawnOptions } from './processes.ts';
import { measureProxy } from './proxy.ts';
import { measureQuotaPath, startStoreServers } from './quota.ts';
import { captureReplies, startReplay } from './replay.ts';
import { kindRequest, modelsRequest } from './requests.ts';
import type { BenchResults } from './results.ts';
import type { BenchSettings } from './settings.ts';
import { measureStreams, streamRequest } from './streams.ts';
import { measureUpstream } from './upstream.ts';

export interface RunOptions {
  settings: BenchSettings;
  /** Where the captured replies (and, with `cpuProfile`, the reference server's CPU profiles) go. */
  outDir: string;
  cpuProfile?: boolean;
  /** Flags for `node` running the reference servers, and environment variables besides ours (`npm start`'s). */
  serverFlags: string[];
  serverEnv: Record<string, string>;
  log?: (line: string) => void;
}

export async function runBench(options: RunOptions): Promise<BenchResults> {
  const { settings, outDir } = options;
  const log = options.log ?? (() => {});
  const header = startRun(settings.mode, options);
  mkdirSync(outDir, { recursive: true });
  if (options.cpuProfile) rmSync(join(outDir, 'profiles'), { recursive: true, force: true }); // this run's only
  const launch: SpawnOptions = { compiled: true, nodeFlags: options.serverFlags, env: options.serverEnv };
  const servers: ServerProcess[] = [];
  const samplers: RssSampler[] = [];
  const track = (server: ServerProcess) => {
    servers.push(server);
    const rss = sampleRss(server.pid);
    samplers.push(rss);
    return rss;
  };

  log('compiling the reference server (as npm start does), starting it and PostgreSQL');
  await buildServer();
  // PostgreSQL takes a second or so to start: it starts first, and the reference is measured meanwhile.
  const postgresStarting = startEntry('postgres', 'scripts/bench/postgres-entry.ts', [], { timeoutS: 120 });
  postgresStarting.then((p) => servers.push(p), () => {});
  const sqliteDir = mkdtempSync(join(tmpdir(), 'bench-quota-'));
  try {
    const profile = options.cpuProfile ? { cpuProfileDir: join(outDir, 'profiles') } : {};
    const reference = await startEntry('reference', 'scripts/bench/reference-entry.ts', ['--image-keys', String(settings.imageKeys)], { ...launch, ...profile });
    const referenceRss = track(reference);
    const startMb = referenceRss.now();
    const loadKey = reference.ready.loadKey as string;
    const scenarios = [
      { name: 'models' as const, label: 'GET /v1/models', spec: modelsRequest(loadKey) },
      { name: 'chat' as const, label: 'POST /v1/chat/completions', spec: kindRequest('chat', loadKey, 1) },
    ];
    log('capturing the reference answers and starting the bare node:http server');
    const repliesFile = join(outDir, 'bench-replies.json');
    await captureReplies(reference.baseUrl, scenarios.map((s) => s.spec), repliesFile);
    const bare = await startReplay('bare', repliesFile);
    const bareRss = track(bare);
    const { peakMb: slowPeak, ...streams } = await measureStreams({ server: reference, rss: referenceRss }, settings.streams, launch, log);

    const nextKey = keyRotation(reference.ready.imageKeys as string[], imagesPerKey).next;
    const images: BenchResults['images'] = [];
    for (const imageCase of settings.images.cases) {
      log(`images: ${imageCase.size}, n = ${imageCase.n}`);
      if (settings.mode === 'full') await imageLoad(reference.baseUrl, nextKey, imageCase, { connections: 1, amount: 3 });
      const phase = referenceRss.phase();
      const result = await imageLoad(reference.baseUrl, nextKey, imageCase, settings.images);
      images.push({ ...result, rssPeakMb: phase.end() });
    }

    log('quota path: a reference server on each store (memory, SQLite, PostgreSQL), issuing its keys');
    const postgres = await postgresStarting;
    const storeServers = await startStoreServers({ postgresUrl: postgres.ready.url as string, sqliteDir, settings: settings.quota, spawn: launch });
    const quotaTargets = storeServers.map((s) => ({ ...s, rss: track(s.server), ...(s.store === 'postgres' && { databasePid: postgres.pid }) }));
    const quota = await measureQuotaPath(quotaTargets, settings.quota, log);
    await Promise.all(storeServers.map((s) => s.server.close()));
    await postgres.close();

    const targets = [{ name: 'reference' as const, server: reference, rss: referenceRss }, { name: 'bare' as const, server: bare, rss: bareRss }];
    const http: HttpScenarioResult[] = [];
    for (const scenario of scenarios) http.push(await measureScenario(scenario, targets, settings.http, log));

    log('validating proxy: time to first event and the listing, directly and through it');
    const proxy = await measureProxy(reference, streamRequest(reference, settings.streams.maxTokens), modelsRequest(loadKey), settings.proxy, log);
    log('upstream: a reference server directly, through this gateway and through Portkey');
    const upstream = await measureUpstream(settings.upstream, launch, log);

    const partial: Omit<BenchResults, 'targets'> = {
      ...header(),
      settings,
      http,
      streams,
      images,
      quota,
      proxy,
      upstream,
      memory: { startMb, peakMb: Math.max(referenceRss.peak, slowPeak) },
    };
    return { ...partial, targets: judge(partial) };
  } finally {
    for (const rss of samplers) rss.stop();
    await postgresStarting.catch(() => undefined);
    await Promise.all(servers.map((s) => s.close()));
    rmSync(sqliteDir, { recursive: true, force: true });
  }
}
