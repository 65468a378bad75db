/**
 * The comparison of two builds (`npm run bench -- --baseline <ref>`): this tree's reference server and the
 * server of another commit (baseline.ts), each compiled and started as `npm start` runs it, and two servers
 * replaying this tree's answers (bare `node:http`, the ceiling; Fastify alone, the framework's floor),
 * measured in turn on every kind of request, round after round, in one run, both builds' servers started
 * afresh for every round. On a shared machine the
 * throughput of a server moves with the other tenants' load; the CPU time a server spends per request moves
 * far less, and a ratio of two servers measured seconds apart moves less still: those are the figures the
 * comparison is read by.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { buildServer, currentServerBuild } from '../build-server.ts';
import { root } from '../lib/paths.ts';
import { prepareBaseline, type BaselineBuild } from './baseline.ts';
import { captureReplies } from './capture.ts';
import { cpuTimeUs } from './cpu.ts';
import { runLoad, summariseRounds, type LoadResult, type LoadSpec } from './load.ts';
import { describeMachine, type Machine } from './machine.ts';
import { startEntry, type ServerProcess, type SpawnOptions } from './processes.ts';
import { profileBreakdown, type ProfileBreakdown } from './profile-breakdown.ts';
import { countInstructions, type InstructionCounts } from './instructions.ts';
import { replayEntries } from './replies.ts';
import { measureSurvivors, survivorsPreload, SURVIVORS_FILE_VARIABLE, type Survivors } from './survivors.ts';
import { kindLabels, kindRequest, type RequestKind } from './requests.ts';
import { sampleRss, type RssSampler } from './rss.ts';
import { percentile, thousands } from './stats.ts';
import type { TargetVerdict } from './results.ts';

export interface CompareSettings {
  mode: 'full' | 'quick';
  connections: number;
  /** Seconds of load on each server before the rounds of a kind (JIT, connections). */
  warmupS: number;
  durationS: number;
  rounds: number;
  /** With `--instructions`: requests sent before counting, and requests counted, per kind and build. */
  instructions: { warmup: number; requests: number };
  /** With `--cpu-prof`: seconds of load profiled per kind and build. */
  profileS: number;
}

/** As the issue that asked for the comparison measured: 50 connections; rounds short and many. */
export const compareFullSettings: CompareSettings = {
  mode: 'full',
  connections: 50,
  warmupS: 2,
  durationS: 3,
  rounds: 5,
  instructions: { warmup: 4000, requests: 1500 },
  profileS: 6,
};

export const compareQuickSettings: CompareSettings = {
  mode: 'quick',
  connections: 8,
  warmupS: 0,
  durationS: 0.5,
  rounds: 1,
  instructions: { warmup: 50, requests: 50 },
  profileS: 1,
};

export type CompareServer = 'current' | 'baseline' | 'bare' | 'fastify';

/** One server's figures on one kind of request: the median round, and every round's. */
export interface KindFigure {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  errors: number;
  non2xx: number;
  /** CPU time (user + system, all threads) per answered request, µs: the median round; null without /proc. */
  cpuUsPerRequest: number | null;
  roundsRps: number[];
  roundsCpuUs: Array<number | null>;
  /** The server process each round measured: a new one every round for both builds, one per kind for bare and Fastify alone. */
  roundsPid: number[];
  rssPeakMb: number;
}

export interface KindComparison {
  kind: RequestKind;
  label: string;
  /** Events in this tree's answer to the captured request (streams only). */
  events?: number;
  current: KindFigure;
  /** Absent when the baseline does not serve this kind (`notServed` says what it answered). */
  baseline?: KindFigure;
  notServed?: string;
  bare: KindFigure;
  /** Fastify alone replaying this tree's answer (fastify-entry.ts): the framework's floor. */
  fastify: KindFigure;
  /** Medians of the rounds' ratios (the servers of a round ran seconds apart). */
  ratios: {
    /** current / baseline CPU per request. */
    cpu: number | null;
    /**
     * The lowest and the highest of the rounds' current / baseline CPU ratios: how far a round's ratio moves
     * between rounds of one run. Two servers of the same commit (`--baseline HEAD`) gave a listing 0.68×
     * (rounds 0.66–0.85×) and, in the next run, 1.08× (0.93–1.26×): a median near a target's bound, inside
     * such a spread, says little either way.
     */
    cpuSpread: { low: number; high: number } | null;
    /** current / baseline requests per second. */
    rps: number | null;
    /** current / bare and baseline / bare requests per second. */
    currentVsBare: number;
    baselineVsBare: number | null;
    /** current / Fastify alone requests per second. */
    currentVsFastify: number;
  };
  /**
   * For a kind judged against the chat completion (`againstChat`): this tree's chat and bare node:http
   * replaying it, measured in the same rounds as the kind, on the same server of this tree, seconds from it.
   * The allowance is judged round by round from these (a round's chat plus what bare pays that round for the
   * kind's extra bytes and events): the host's speed moves within minutes, and a chat measured while another
   * kind's turn came was slower or faster than the kind by as much as the allowance's margin (bare node:http
   * spent 57 µs a chat and 85 µs an Anthropic message in one run, whose bodies differ by a tenth).
   */
  chatBeside?: { current: KindFigure; bare: KindFigure };
  /** With `--instructions`: each build's count, and bare node:http's and Fastify alone's replaying this tree's answer. */
  instructions?: { current: InstructionCounts; baseline?: InstructionCounts; bare?: InstructionCounts; fastify?: InstructionCounts };
  profiles?: { current: ProfileBreakdown; baseline?: ProfileBreakdown };
  survivors?: { current: Survivors; baseline?: Survivors };
}

export interface CompareResults {
  mode: 'full' | 'quick';
  startedAt: string;
  elapsedS: number;
  machine: Machine;
  loadAverage: [number, number];
  serverFlags: string[];
  serverEnv: Record<string, string>;
  settings: CompareSettings;
  /** This tree: its commit, and whether files differ from it. */
  current: { commit: string; subject: string; modified: boolean };
  baseline: { ref: string; commit: string; subject: string; dependencies: BaselineBuild['dependencies'] };
  /** RSS of each build's server right after start, MB. */
  startRssMb: { current: number; baseline: number };
  kinds: KindComparison[];
  targets: TargetVerdict[];
}

export interface CompareOptions {
  baseline: string;
  kinds: readonly RequestKind[];
  settings: CompareSettings;
  serverFlags: string[];
  serverEnv: Record<string, string>;
  /** Also profile each kind on each build (`--cpu-prof`); the profiles go to `<outDir>/profiles/<build>/<kind>/`. */
  cpuProfile?: boolean;
  /** Also count instructions per request of each kind on each build under callgrind (`--instructions`). */
  instructions?: boolean;
  /** Also sample what outlives the young generation per request of each kind on each build (`--survivors`). */
  survivors?: boolean;
  outDir: string;
  log: (line: string) => void;
}

interface Running {
  name: CompareServer;
  server: ServerProcess;
  rss: RssSampler;
}

const git = (args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();

function describeCurrent(): CompareResults['current'] {
  try {
    return { commit: git(['rev-parse', 'HEAD']), subject: git(['log', '-1', '--format=%s']), modified: git(['status', '--porcelain', '--untracked-files=no']) !== '' };
  } catch {
    return { commit: 'unknown', subject: 'not a git checkout', modified: false };
  }
}

/** The ratios of the rounds in which both figures exist, smallest first. */
function roundRatios(a: ReadonlyArray<number | null>, b: ReadonlyArray<number | null>): number[] {
  return a.flatMap((x, i) => (x !== null && b[i] !== null && b[i] !== undefined && b[i]! > 0 ? [x / b[i]!] : [])).sort((x, y) => x - y);
}

/** Median of the ratios of rounds in which both figures exist. */
function medianRatio(a: ReadonlyArray<number | null>, b: ReadonlyArray<number | null>): number | null {
  const ratios = roundRatios(a, b);
  return ratios.length === 0 ? null : ratios[Math.floor((ratios.length - 1) / 2)]!;
}

/** The lowest and highest of the rounds' ratios. */
function ratioSpread(a: ReadonlyArray<number | null>, b: ReadonlyArray<number | null>): { low: number; high: number } | null {
  const ratios = roundRatios(a, b);
  return ratios.length === 0 ? null : { low: ratios[0]!, high: ratios[ratios.length - 1]! };
}

/** The kinds whose target is the chat completion's cost plus what their extra bytes and events cost bare node:http. */
export const againstChat = (kind: RequestKind): boolean => kind !== 'models' && kind !== 'chat';

type Round = LoadResult & { cpuUsPerRequest: number | null; rssPeakMb: number; pid: number };

function summarise(rounds: Round[]): KindFigure {
  const s = summariseRounds(rounds);
  const cpu = rounds.map((r) => r.cpuUsPerRequest);
  return {
    rps: s.rps,
    p50Ms: s.p50Ms,
    p99Ms: s.p99Ms,
    requests: s.requests,
    errors: s.errors,
    non2xx: rounds.reduce((n, r) => n + r.non2xx, 0),
    cpuUsPerRequest: cpu.some((c) => c === null) ? null : percentile(cpu as number[], 50),
    roundsRps: s.roundsRps,
    roundsCpuUs: cpu,
    roundsPid: rounds.map((r) => r.pid),
    rssPeakMb: Math.max(...rounds.map((r) => r.rssPeakMb)),
  };
}

/** One timed load on one server, with the CPU time its process spent meanwhile. */
async function measure(target: Running, spec: LoadSpec, settings: CompareSettings): Promise<Round> {
  const phase = target.rss.phase();
  const before = cpuTimeUs(target.server.pid);
  const result = await runLoad(target.server.baseUrl, spec, { connections: settings.connections, durationS: settings.durationS });
  const after = cpuTimeUs(target.server.pid);
  const cpuUsPerRequest = before !== undefined && after !== undefined && result.requests > 0 ? (after - before) / result.requests : null;
  return { ...result, cpuUsPerRequest, rssPeakMb: phase.end(), pid: target.server.pid };
}

/** The status a server answers one request of a kind with, and the first bytes of its body. */
async function probe(baseUrl: string, spec: LoadSpec): Promise<{ status: number; text: string }> {
  const res = await fetch(`${baseUrl}${spec.path}`, { method: spec.method, headers: spec.headers, body: spec.body });
  return { status: res.status, text: (await res.text()).slice(0, 200) };
}

/**
 * Builds both servers, measures every kind of request on them and on the replaying servers in turn, and
 * removes the baseline's work tree.
 *
 * @example
 *   const results = await compareBuilds({ baseline: '6fe2d06', kinds: requestKinds, settings: compareFullSettings, … });
 */
export async function compareBuilds(options: CompareOptions): Promise<CompareResults> {
  const { settings, log } = options;
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const startLoad = loadavg()[0] ?? 0;
  mkdirSync(options.outDir, { recursive: true });
  const scratch = mkdtempSync(join(tmpdir(), 'bench-compare-'));
  const running: Running[] = [];
  const stopAll = async () => {
    for (const r of running.splice(0)) r.rss.stop();
  };
  const spawned: ServerProcess[] = [];
  log('compiling this tree\'s server (as npm start does)');
  await buildServer();
  const currentBuild = currentServerBuild();
  const baseline = await prepareBaseline(options.baseline, log);
  // Interrupted (Ctrl-C, a CI timeout), the run still removes the work tree and stops its servers.
  const interrupted = (signal: NodeJS.Signals) => {
    for (const s of spawned) {
      try {
        process.kill(s.pid, 'SIGKILL');
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
  const launch = (build: string, cwd: string): SpawnOptions => ({ compiled: true, build, cwd, nodeFlags: options.serverFlags, env: options.serverEnv, timeoutS: 60 });
  const builds: Record<'current' | 'baseline', { build: string; cwd: string }> = {
    current: { build: currentBuild, cwd: root },
    baseline: { build: baseline.build, cwd: baseline.dir },
  };
  try {
    const start = async (name: CompareServer, entry: string, args: string[], spawnOptions: SpawnOptions): Promise<Running> => {
      const server = await startEntry(name, entry, args, spawnOptions);
      spawned.push(server);
      const r = { name, server, rss: sampleRss(server.pid) };
      running.push(r);
      return r;
    };
    const stop = async (r: Running) => {
      await r.server.close();
      r.rss.stop();
      running.splice(running.indexOf(r), 1);
    };
    const startBuild = (name: 'current' | 'baseline', extra: Partial<SpawnOptions> = {}) =>
      start(name, 'scripts/bench/reference-entry.ts', [], { ...launch(builds[name].build, builds[name].cwd), ...extra });
    log('starting both builds\' servers');
    const current = await startBuild('current');
    const base = await startBuild('baseline');
    const startRssMb = { current: current.rss.now(), baseline: base.rss.now() };
    const keyOf = (r: Running) => r.server.ready.loadKey as string;
    const repliesFileOf = (kind: RequestKind) => join(scratch, `replies-${kind}.json`);

    const kinds: KindComparison[] = [];
    for (const kind of options.kinds) {
      const label = kindLabels[kind];
      const sample = kindRequest(kind, keyOf(current), 0);
      const ours = await probe(current.server.baseUrl, sample);
      if (ours.status < 200 || ours.status > 299) throw new Error(`${label}: this tree's server answered ${ours.status}: ${ours.text}`);
      const theirs = await probe(base.server.baseUrl, kindRequest(kind, keyOf(base), 0));
      const served = theirs.status >= 200 && theirs.status <= 299;
      // The replaying servers per kind, each sending this tree's answer to it (two kinds share a path).
      const repliesFile = repliesFileOf(kind);
      const captured = await captureReplies(current.server.baseUrl, [sample], repliesFile);
      const reply = Object.values(captured)[0]!;
      const events = reply.headers['content-type']?.startsWith('text/event-stream')
        ? Buffer.from(reply.body, 'base64').toString('utf8').split('\n\n').filter((e) => e.trim() !== '').length
        : undefined;
      const bare = await start('bare', replayEntries.bare, [repliesFile], {});
      const fastify = await start('fastify', replayEntries.fastify, [repliesFile], {});
      // The chat beside a kind judged against it: bare node:http replaying this tree's chat, one per kind.
      const beside = againstChat(kind);
      let bareChat: Running | undefined;
      if (beside) {
        const chatFile = repliesFileOf('chat');
        if (!existsSync(chatFile)) await captureReplies(current.server.baseUrl, [kindRequest('chat', keyOf(current), 0)], chatFile);
        bareChat = await start('bare', replayEntries.bare, [chatFile], {});
      }
      // Each server is sent requests with the key it issued (a replaying server answers any key).
      const spec = (r: Running, seed: number, asked: RequestKind = kind) => kindRequest(asked, (r.server.ready.loadKey as string | undefined) ?? keyOf(current), seed);
      const warmUp = async (t: Running, asked: RequestKind = kind) => {
        if (settings.warmupS > 0) await runLoad(t.server.baseUrl, spec(t, 1000, asked), { connections: settings.connections, durationS: settings.warmupS });
      };
      log(`${label}: warming up bare node:http and Fastify alone`);
      for (const t of [bare, fastify]) await warmUp(t);
      if (bareChat) await warmUp(bareChat, 'chat');
      const measured: CompareServer[] = served ? ['current', 'baseline', 'bare', 'fastify'] : ['current', 'bare', 'fastify'];
      const rounds = new Map(measured.map((name) => [name, [] as Round[]]));
      const chatRounds = { current: [] as Round[], bare: [] as Round[] };
      for (let round = 0; round < settings.rounds; round++) {
        // Both builds' servers are started afresh for every round and warmed up: one start of a server can
        // cost more per request than another of the same build for its whole life (with one pair per run, two
        // servers of the same commit, --baseline HEAD, put a listing at 0.68× to 1.25× the other in six runs,
        // most rounds of a run on the same side), and the median of the rounds' ratios evens that out only
        // when each round has its own pair.
        // The two builds take turns to go first (started, warmed up and measured), one right after the other,
        // then the replaying servers in turn: with a rotation of all four, one build went before the other in
        // three rounds of four. All are sent the same prompts.
        const names = (served ? (round % 2 === 0 ? ['current', 'baseline'] : ['baseline', 'current']) : ['current']) as Array<'current' | 'baseline'>;
        // A kind judged against the chat has the chat measured beside it in the round, on this tree's server
        // and on bare (both builds' servers warmed up on the chat too, so that both have served the same).
        const pair: Running[] = [];
        for (const name of names) pair.push(await startBuild(name));
        try {
          log(`${label}: round ${round + 1} of ${settings.rounds}: warming up both builds' servers`);
          for (const t of pair) {
            await warmUp(t);
            if (beside) await warmUp(t, 'chat');
          }
          type Turn = { server: Running; asked: RequestKind; into: Round[] };
          const turn = (server: Running, asked: RequestKind = kind, into = rounds.get(server.name)!): Turn => ({ server, asked, into });
          const ours = pair.find((t) => t.name === 'current')!;
          const replaying = [turn(bare), ...(bareChat ? [turn(bareChat, 'chat', chatRounds.bare)] : []), turn(fastify)];
          const order = [...pair.map((t) => turn(t)), ...(beside ? [turn(ours, 'chat', chatRounds.current)] : []), ...(round % 2 === 0 ? replaying : replaying.reverse())];
          for (const t of order) {
            log(`${label}: ${t.server.name}${t.asked === kind ? '' : ` (${kindLabels[t.asked]})`}, round ${round + 1} of ${settings.rounds}`);
            t.into.push(await measure(t.server, spec(t.server, round + 1, t.asked), settings));
          }
        } finally {
          for (const t of pair) await stop(t);
        }
      }
      for (const replaying of [bare, fastify, ...(bareChat ? [bareChat] : [])]) await stop(replaying);
      const fig = (name: CompareServer) => summarise(rounds.get(name)!);
      const figures = { current: fig('current'), bare: fig('bare'), fastify: fig('fastify'), ...(served && { baseline: fig('baseline') }) };
      kinds.push({
        kind,
        label,
        ...(events !== undefined && { events }),
        current: figures.current,
        ...(figures.baseline ? { baseline: figures.baseline } : { notServed: `${theirs.status} ${theirs.text.slice(0, 80)}` }),
        bare: figures.bare,
        fastify: figures.fastify,
        ...(beside && { chatBeside: { current: summarise(chatRounds.current), bare: summarise(chatRounds.bare) } }),
        ratios: {
          cpu: figures.baseline ? medianRatio(figures.current.roundsCpuUs, figures.baseline.roundsCpuUs) : null,
          cpuSpread: figures.baseline ? ratioSpread(figures.current.roundsCpuUs, figures.baseline.roundsCpuUs) : null,
          rps: figures.baseline ? medianRatio(figures.current.roundsRps, figures.baseline.roundsRps) : null,
          currentVsBare: medianRatio(figures.current.roundsRps, figures.bare.roundsRps) ?? 0,
          baselineVsBare: figures.baseline ? medianRatio(figures.baseline.roundsRps, figures.bare.roundsRps) : null,
          currentVsFastify: medianRatio(figures.current.roundsRps, figures.fastify.roundsRps) ?? 0,
        },
      });
    }
    await Promise.all([current, base].map((r) => r.server.close()));
    await stopAll();

    /**
     * Runs `measure` on a server started afresh for each kind on each build that serves it, with `extra`
     * launch options (a profiler's), and stops it afterwards: the profiled and sampled runs below.
     */
    const onFreshServers = async (extra: (name: 'current' | 'baseline', k: KindComparison) => Partial<SpawnOptions>, measure: (name: 'current' | 'baseline', k: KindComparison, server: ServerProcess) => Promise<void>) => {
      for (const name of ['current', 'baseline'] as const) {
        for (const k of kinds) {
          if (name === 'baseline' && !k.baseline) continue;
          const fresh = await startBuild(name, extra(name, k));
          try {
            await measure(name, k, fresh.server);
          } finally {
            await stop(fresh);
          }
        }
      }
    };

    if (options.cpuProfile) {
      const dirOf = (name: string, k: KindComparison) => join(options.outDir, 'profiles', name, k.kind);
      await onFreshServers(
        (name, k) => {
          rmSync(dirOf(name, k), { recursive: true, force: true });
          return { cpuProfileDir: dirOf(name, k) };
        },
        async (name, k, server) => {
          log(`CPU profile: ${k.label} on ${name}`);
          const spec = kindRequest(k.kind, server.ready.loadKey as string, 2000);
          await runLoad(server.baseUrl, spec, { connections: settings.connections, durationS: Math.max(settings.warmupS, 1) });
          const from = process.hrtime.bigint();
          const before = cpuTimeUs(server.pid);
          const load = await runLoad(server.baseUrl, spec, { connections: settings.connections, durationS: settings.profileS });
          const after = cpuTimeUs(server.pid);
          const to = process.hrtime.bigint();
          // The profile is written when the process stops.
          await server.close();
          const cpu = before !== undefined && after !== undefined && load.requests > 0 ? (after - before) / load.requests : null;
          const dir = dirOf(name, k);
          const files = readdirSync(dir).map((f) => join(dir, f));
          const breakdown = profileBreakdown(files, { fromUs: Number(from / 1000n), toUs: Number(to / 1000n) }, load.requests, cpu);
          k.profiles = { ...k.profiles, [name]: breakdown } as KindComparison['profiles'];
        },
      );
    }

    if (options.survivors) {
      // This tree's compiled preload, given to both builds' servers (the baseline's build has none of its own).
      const preload = survivorsPreload(builds.current.build);
      const fileOf = (name: string, k: KindComparison) => join(scratch, `survivors-${name}-${k.kind}.json`);
      await onFreshServers(
        (name, k) => ({ nodeFlags: [...options.serverFlags, '--import', preload], env: { ...options.serverEnv, [SURVIVORS_FILE_VARIABLE]: fileOf(name, k) } }),
        async (name, k, server) => {
          log(`survivors of the young generation: ${k.label} on ${name}`);
          const survivors = await measureSurvivors(server, kindRequest(k.kind, server.ready.loadKey as string, 4000), fileOf(name, k), {
            connections: settings.connections,
            warmupS: Math.max(settings.warmupS, 1),
            durationS: settings.profileS,
          });
          k.survivors = { ...k.survivors, [name]: survivors } as KindComparison['survivors'];
        },
      );
    }

    if (options.instructions) {
      for (const name of ['current', 'baseline'] as const) {
        const served = kinds.filter((k) => name === 'current' || k.baseline).map((k) => k.kind);
        log(`instructions: ${served.length} kinds on ${name}, under callgrind (minutes)`);
        const counts = await countInstructions({
          build: builds[name].build,
          cwd: builds[name].cwd,
          nodeFlags: options.serverFlags,
          env: options.serverEnv,
          kinds: served,
          warmup: settings.instructions.warmup,
          requests: settings.instructions.requests,
          // Each line says whose counts it gives (a kind that does not settle is named in the log).
          log: (line) => log(`${name}: ${line}`),
        });
        for (const k of kinds) {
          const count = counts[k.kind];
          if (count) k.instructions = { ...k.instructions, [name]: count } as KindComparison['instructions'];
        }
      }
      // The replaying servers too, a process per kind (each replays its own captured answer): what its bytes
      // and events cost node:http itself (the allowances' targets), and Fastify alone, in a figure the
      // machine's load does not move.
      for (const server of ['bare', 'fastify'] as const) {
        const who = server === 'bare' ? 'bare node:http' : 'Fastify alone';
        for (const k of kinds) {
          log(`instructions: ${who}, ${k.label}, under callgrind`);
          const counts = await countInstructions({
            replay: { server, replies: repliesFileOf(k.kind) },
            nodeFlags: options.serverFlags,
            env: options.serverEnv,
            kinds: [k.kind],
            warmup: settings.instructions.warmup,
            requests: settings.instructions.requests,
            log: (line) => log(`${who}: ${line}`),
          });
          const count = counts[k.kind];
          if (count && k.instructions) k.instructions[server] = count;
        }
      }
    }

    const partial: Omit<CompareResults, 'targets'> = {
      mode: settings.mode,
      startedAt,
      elapsedS: (performance.now() - started) / 1000,
      machine: describeMachine(),
      loadAverage: [startLoad, loadavg()[0] ?? 0],
      serverFlags: options.serverFlags,
      serverEnv: options.serverEnv,
      settings,
      current: describeCurrent(),
      baseline: { ref: baseline.ref, commit: baseline.commit, subject: baseline.subject, dependencies: baseline.dependencies },
      startRssMb,
      kinds,
    };
    return { ...partial, targets: judgeComparison(partial) };
  } finally {
    await Promise.all(spawned.map((s) => s.close()));
    await stopAll();
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    baseline.remove();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * This tree / the baseline in CPU per request, with the rounds' lowest and highest when they differ:
 * `1.02× (rounds 0.97–1.06×)`; empty when not measured.
 */
export function cpuRatioText(ratios: Pick<KindComparison['ratios'], 'cpu' | 'cpuSpread'>): string {
  if (ratios.cpu === null) return '';
  const spread = ratios.cpuSpread;
  const shown = (ratio: number) => ratio.toFixed(2);
  return spread === null || shown(spread.low) === shown(spread.high) ? `${shown(ratios.cpu)}×` : `${shown(ratios.cpu)}× (rounds ${shown(spread.low)}–${shown(spread.high)}×)`;
}

/** A kind's allowance: the chat's cost plus what bare node:http pays more for the kind than for the chat (never less than the chat's). */
const allowanceOf = (chat: number, bareKind: number, bareChat: number) => chat + Math.max(0, bareKind - bareChat);

/**
 * A kind's CPU per request against its allowance, the chat completion's plus what bare node:http pays more for
 * the kind than for the chat: `334 µs (allowed 290): 1.15× (rounds 1.02–1.30×)`. Round by round when the run
 * measured the chat beside the kind (`chatBeside`), judged by the median of the rounds' ratios; from the chat's
 * own medians otherwise (a comparison recorded before the chat was measured beside each kind). Undefined when
 * neither was measured.
 */
function allowanceInCpu(k: KindComparison, chat: KindComparison | undefined): { text: string; met: boolean } | undefined {
  const beside = k.chatBeside;
  if (beside) {
    const allowed = beside.current.roundsCpuUs.map((ownChat, i) => {
      const bare = k.bare.roundsCpuUs[i];
      const bareChat = beside.bare.roundsCpuUs[i];
      return ownChat === null || bare === null || bare === undefined || bareChat === null || bareChat === undefined ? null : allowanceOf(ownChat, bare, bareChat);
    });
    const ratio = medianRatio(k.current.roundsCpuUs, allowed);
    const known = allowed.filter((a): a is number => a !== null);
    if (ratio === null || k.current.cpuUsPerRequest === null || known.length === 0) return { text: 'not measured', met: false };
    const ratios = cpuRatioText({ cpu: ratio, cpuSpread: ratioSpread(k.current.roundsCpuUs, allowed) });
    return { text: `${Math.round(k.current.cpuUsPerRequest)} µs (allowed ${Math.round(percentile(known, 50))}): ${ratios}`, met: ratio <= 1 };
  }
  if (!chat) return undefined;
  const own = k.current.cpuUsPerRequest;
  const bare = k.bare.cpuUsPerRequest;
  const chatCpu = chat.current.cpuUsPerRequest;
  const chatBare = chat.bare.cpuUsPerRequest;
  const allowed = chatCpu !== null && chatBare !== null && bare !== null ? allowanceOf(chatCpu, bare, chatBare) : null;
  return {
    text: own === null || allowed === null ? 'not measured' : `${Math.round(own)} µs (allowed ${Math.round(allowed)})`,
    met: own !== null && allowed !== null && own <= allowed,
  };
}

/**
 * What the builds must show (issue 30), judged on one full run: the listing costs no more CPU per request than
 * the baseline's and reaches 75% of bare node:http; a short chat costs at most 1.2× the baseline's CPU and
 * reaches half of bare; streams, Anthropic messages and Responses calls cost no more than the chat
 * completion plus what their extra bytes and events cost bare node:http itself (bare's same difference).
 * Each in CPU time and, when the run counted them (`--instructions`), in instructions too.
 */
export function judgeComparison(results: Omit<CompareResults, 'targets'>): TargetVerdict[] {
  const of = (kind: RequestKind) => results.kinds.find((k) => k.kind === kind);
  const verdicts: TargetVerdict[] = [];
  const pct = (r: number) => `${Math.round(r * 100)}%`;
  const models = of('models');
  const chat = of('chat');
  // The same two targets in instructions (--instructions), which the machine's load does not move: this tree's
  // count against the baseline's, and bare's count against this tree's (a server that does the same work per
  // request in fewer instructions serves more requests in the same CPU time).
  const counts = (k: KindComparison) => ({ current: k.instructions?.current?.perRequest, baseline: k.instructions?.baseline?.perRequest, bare: k.instructions?.bare?.perRequest });
  const inInstructions = (k: KindComparison, name: string, bound: number) => {
    const { current, baseline } = counts(k);
    if (current === undefined || baseline === undefined) return;
    verdicts.push({
      name: `${name}: instructions per request vs the baseline`,
      goal: `≤ ${bound.toFixed(2)}× the baseline's`,
      measured: `${thousands(current)} / ${thousands(baseline)} (${(current / baseline).toFixed(2)}×)`,
      met: current <= bound * baseline,
    });
  };
  const shareInInstructions = (k: KindComparison, name: string, bound: number) => {
    const { current, bare } = counts(k);
    if (current === undefined || bare === undefined) return;
    verdicts.push({
      name: `${name} vs bare node:http, in instructions`,
      goal: `bare's count ≥ ${pct(bound)} of this tree's`,
      // To a tenth of a percent: counts steady to 0.6% can sit a hair under the bound (74.9%).
      measured: `${(Math.round((bare / current) * 1000) / 10).toFixed(1)}% (${thousands(bare)} / ${thousands(current)})`,
      met: bare >= bound * current,
    });
  };
  if (models) {
    verdicts.push({
      name: 'GET /v1/models: CPU per request vs the baseline',
      goal: '≤ 1.00× the baseline\'s',
      measured: cpuRatioText(models.ratios) || 'not measured',
      met: models.ratios.cpu !== null && models.ratios.cpu <= 1,
    });
    inInstructions(models, 'GET /v1/models', 1);
    verdicts.push({ name: 'GET /v1/models vs bare node:http', goal: '≥ 75% of bare req/s', measured: pct(models.ratios.currentVsBare), met: models.ratios.currentVsBare >= 0.75 });
    shareInInstructions(models, 'GET /v1/models', 0.75);
  }
  if (chat) {
    verdicts.push({
      name: 'chat completion: CPU per request vs the baseline',
      goal: '≤ 1.20× the baseline\'s',
      measured: cpuRatioText(chat.ratios) || 'not measured',
      met: chat.ratios.cpu !== null && chat.ratios.cpu <= 1.2,
    });
    inInstructions(chat, 'chat completion', 1.2);
    verdicts.push({ name: 'chat completion vs bare node:http', goal: '≥ 50% of bare req/s', measured: pct(chat.ratios.currentVsBare), met: chat.ratios.currentVsBare >= 0.5 });
    shareInInstructions(chat, 'chat completion', 0.5);
  }
  for (const k of results.kinds) {
    if (!againstChat(k.kind)) continue;
    const allowance = allowanceInCpu(k, chat);
    if (allowance === undefined) continue;
    verdicts.push({
      name: `${k.label}: CPU per request vs the chat completion`,
      goal: 'chat\'s + what its extra bytes and events cost bare',
      measured: allowance.text,
      met: allowance.met,
    });
    if (chat) {
      // The same allowance in instructions (--instructions), which the machine's load does not move.
      const counted = k.instructions?.current?.perRequest;
      const countedBare = k.instructions?.bare?.perRequest;
      const chatCounted = chat.instructions?.current?.perRequest;
      const chatCountedBare = chat.instructions?.bare?.perRequest;
      if (counted !== undefined && countedBare !== undefined && chatCounted !== undefined && chatCountedBare !== undefined) {
        const allowedCount = allowanceOf(chatCounted, countedBare, chatCountedBare);
        verdicts.push({
          name: `${k.label}: instructions per request vs the chat completion`,
          goal: 'chat\'s + what its extra bytes and events cost bare',
          measured: `${thousands(counted)} (allowed ${thousands(allowedCount)})`,
          met: counted <= allowedCount,
        });
      }
    }
  }
  return verdicts;
}
