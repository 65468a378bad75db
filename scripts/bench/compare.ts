/**
 * The comparison of two builds (`--baseline <ref>`): this tree's server and another commit's, each started as
 * `npm start` runs it, beside bare node:http and Fastify alone replaying this tree's answers, measured in turn
 * on every kind of request, round after round. On a shared machine throughput moves with the other tenants'
 * load; CPU time per request moves far less, and a ratio of two servers measured seconds apart less still.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildServer, currentServerBuild } from '../build-server.ts';
import { root } from '../lib/paths.ts';
import { prepareBaseline, type BaselineBuild } from './builds.ts';
import { measureRound, serverFigure, type Measured, type Round, type ServerFigure } from './http.ts';
import { runLoad, type LoadSpec } from './load.ts';
import { sampleRss, startRun, type RunHeader } from './machine.ts';
import { startEntry, type ServerProcess, type SpawnOptions } from './processes.ts';
import { captureReplies, startReplay } from './replay.ts';
import { kindLabels, kindRequest, type RequestKind } from './requests.ts';
import type { CompareSettings } from './settings.ts';
import { ratioOfRounds, type RoundsRatio } from './stats.ts';

export type CompareServer = 'current' | 'baseline' | 'bare' | 'fastify';

export interface KindComparison {
  kind: RequestKind;
  label: string;
  /** Events in this tree's answer (streams only). */
  events?: number;
  current: ServerFigure;
  /** Absent when the baseline does not serve this kind (`notServed` says what it answered). */
  baseline?: ServerFigure;
  notServed?: string;
  bare: ServerFigure;
  fastify: ServerFigure;
  ratios: KindRatios;
}

/** Medians of the rounds' ratios: this tree / the baseline in CPU time per request (with its lowest and highest round) and in requests per second, and each server's share of the replaying servers' requests per second. */
export interface KindRatios {
  cpu: RoundsRatio | null;
  rps: number | null;
  currentVsBare: number | null;
  baselineVsBare: number | null;
  currentVsFastify: number | null;
}

export interface CompareResults extends RunHeader {
  settings: CompareSettings;
  baseline: { ref: string; commit: string; subject: string; dependencies: BaselineBuild['dependencies'] };
  /** RSS of each build's first server right after start, MB. */
  startRssMb: { current: number; baseline: number };
  kinds: KindComparison[];
}

export interface CompareOptions {
  baseline: string;
  kinds: readonly RequestKind[];
  settings: CompareSettings;
  serverFlags: string[];
  serverEnv: Record<string, string>;
  /** Also write CPU profiles of both builds' servers, to `<outDir>/profiles/<build>/<kind>/`. */
  cpuProfile?: boolean;
  outDir: string;
  log: (line: string) => void;
}

/** The ratios of a kind's figures, round by round: `kindRatios(figures).cpu // { median: 1.02, low: 0.97, high: 1.06 }`. */
export function kindRatios(f: { current: ServerFigure; baseline?: ServerFigure; bare: ServerFigure; fastify: ServerFigure }): KindRatios {
  const rps = (a: ServerFigure | undefined, b: ServerFigure) => (a ? (ratioOfRounds(a.roundsRps, b.roundsRps)?.median ?? null) : null);
  return {
    cpu: f.baseline ? ratioOfRounds(f.current.roundsCpuUs, f.baseline.roundsCpuUs) : null,
    rps: f.baseline ? rps(f.current, f.baseline) : null,
    currentVsBare: rps(f.current, f.bare),
    baselineVsBare: rps(f.baseline, f.bare),
    currentVsFastify: rps(f.current, f.fastify),
  };
}

/** The status a server answers one request of a kind with, and the first bytes of its body. */
async function probe(baseUrl: string, spec: LoadSpec): Promise<{ status: number; text: string }> {
  const res = await fetch(`${baseUrl}${spec.path}`, { method: spec.method, headers: spec.headers, body: spec.body });
  return { status: res.status, text: (await res.text()).slice(0, 200) };
}

/** Builds both servers, measures every kind on them and on the replaying servers, and removes the baseline's work tree. */
export async function compareBuilds(options: CompareOptions): Promise<CompareResults> {
  const { settings, log } = options;
  const header = startRun(settings.mode, options);
  mkdirSync(options.outDir, { recursive: true });
  if (options.cpuProfile) rmSync(join(options.outDir, 'profiles'), { recursive: true, force: true }); // this run's only
  const scratch = mkdtempSync(join(tmpdir(), 'bench-compare-'));
  log('compiling this tree\'s server (as npm start does)');
  await buildServer();
  const currentBuild = currentServerBuild();
  const baseline = await prepareBaseline(options.baseline, log);
  const builds = { current: { build: currentBuild, cwd: root }, baseline: { build: baseline.build, cwd: baseline.dir } };
  const spawned: Measured[] = [];
  // Interrupted (Ctrl-C, a CI timeout), the run still stops its servers and removes the work tree.
  const interrupted = (signal: NodeJS.Signals) => {
    for (const s of spawned) {
      try {
        process.kill(s.server.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    baseline.remove();
    rmSync(scratch, { recursive: true, force: true });
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    const track = (name: CompareServer, server: ServerProcess) => {
      const measured = { name, server, rss: sampleRss(server.pid) };
      spawned.push(measured);
      return measured;
    };
    const stop = async (t: Measured) => {
      await t.server.close();
      t.rss.stop();
    };
    const startBuild = async (name: 'current' | 'baseline', kind?: RequestKind) => {
      const cpuProfileDir = options.cpuProfile && kind ? join(options.outDir, 'profiles', name, kind) : undefined;
      const spawn: SpawnOptions = { compiled: true, ...builds[name], nodeFlags: options.serverFlags, env: options.serverEnv, timeoutS: 60, cpuProfileDir };
      return track(name, await startEntry(name, 'scripts/bench/reference-entry.ts', [], spawn));
    };
    log('starting both builds\' servers');
    const current = await startBuild('current');
    const base = await startBuild('baseline');
    const startRssMb = { current: current.rss.now(), baseline: base.rss.now() };
    const keyOf = (t: Measured) => t.server.ready.loadKey as string;

    const kinds: KindComparison[] = [];
    for (const kind of options.kinds) {
      const label = kindLabels[kind];
      const sample = kindRequest(kind, keyOf(current), 0);
      const ours = await probe(current.server.baseUrl, sample);
      if (ours.status < 200 || ours.status > 299) throw new Error(`${label}: this tree's server answered ${ours.status}: ${ours.text}`);
      const theirs = await probe(base.server.baseUrl, kindRequest(kind, keyOf(base), 0));
      const served = theirs.status >= 200 && theirs.status <= 299;
      // The replaying servers of a kind send this tree's answer to it (two kinds share a path).
      const repliesFile = join(scratch, `replies-${kind}.json`);
      const reply = Object.values(await captureReplies(current.server.baseUrl, [sample], repliesFile))[0]!;
      const events = reply.headers['content-type']?.startsWith('text/event-stream')
        ? Buffer.from(reply.body, 'base64').toString('utf8').split('\n\n').filter((e) => e.trim() !== '').length
        : undefined;
      const bare = track('bare', await startReplay('bare', repliesFile));
      const fastify = track('fastify', await startReplay('fastify', repliesFile));
      // Each server is sent requests with the key it issued (a replaying server answers any key).
      const spec = (t: Measured, seed: number) => kindRequest(kind, (t.server.ready.loadKey as string | undefined) ?? keyOf(current), seed);
      const warmUp = async (t: Measured) => {
        if (settings.warmupS > 0) await runLoad(t.server.baseUrl, spec(t, 1000), { connections: settings.connections, durationS: settings.warmupS });
      };
      log(`${label}: warming up bare node:http and Fastify alone`);
      for (const t of [bare, fastify]) await warmUp(t);
      const rounds = new Map<CompareServer, Round[]>((['current', 'baseline', 'bare', 'fastify'] as const).map((name) => [name, []]));
      for (let round = 0; round < settings.rounds; round++) {
        // Both builds' servers are started afresh every round: one start of a server can cost more per request
        // than another start of the same build for its whole life, and the median of the rounds' ratios evens
        // that out only when each round has its own pair. The builds take turns to go first.
        const names: Array<'current' | 'baseline'> = served ? (round % 2 === 0 ? ['current', 'baseline'] : ['baseline', 'current']) : ['current'];
        const pair = [];
        for (const name of names) pair.push(await startBuild(name, kind));
        try {
          log(`${label}: round ${round + 1} of ${settings.rounds}: warming up both builds' servers`);
          for (const t of pair) await warmUp(t);
          const replaying = round % 2 === 0 ? [bare, fastify] : [fastify, bare];
          for (const t of [...pair, ...replaying]) {
            log(`${label}: ${t.name}, round ${round + 1} of ${settings.rounds}`);
            rounds.get(t.name)!.push(await measureRound(t, spec(t, round + 1), settings));
          }
        } finally {
          for (const t of pair) await stop(t);
        }
      }
      for (const t of [bare, fastify]) await stop(t);
      const figures = {
        current: serverFigure(rounds.get('current')!),
        ...(served && { baseline: serverFigure(rounds.get('baseline')!) }),
        bare: serverFigure(rounds.get('bare')!),
        fastify: serverFigure(rounds.get('fastify')!),
      };
      const notServed = served ? {} : { notServed: `${theirs.status} ${theirs.text.slice(0, 80)}` };
      kinds.push({ kind, label, ...(events !== undefined && { events }), ...figures, ...notServed, ratios: kindRatios(figures) });
    }
    return {
      ...header(),
      settings,
      baseline: { ref: baseline.ref, commit: baseline.commit, subject: baseline.subject, dependencies: baseline.dependencies },
      startRssMb,
      kinds,
    };
  } finally {
    for (const s of spawned) s.rss.stop();
    await Promise.all(spawned.map((s) => s.server.close()));
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    baseline.remove();
    rmSync(scratch, { recursive: true, force: true });
  }
}
