/**
 * The quota-heavy path on each store (memory, a SQLite file, a PostgreSQL database): image requests of the
 * smallest size the reference model paints, n = 1, so that what the store does for each request (read the key
 * by its hash, reserve the image in one atomic statement) weighs as much as it can against the painting. Two
 * cases: keys with quota left, every answer a 200; keys whose quota is used up, every answer a 429 given right
 * after the refused reservation. That the stores count right under load is the store tests' job.
 */
import { join } from 'node:path';
import { generationSizes } from '../../src/server/domain/engine/images/limits.ts';
import { imageRequest, imagesPerKey, keyRotation } from './images.ts';
import { measureRound, serverFigure, type Measured, type Round, type ServerFigure } from './http.ts';
import { runLoad } from './load.ts';
import { cpuMeter, descendantsCpuTimeUs } from './machine.ts';
import { startEntry, type ServerProcess, type SpawnOptions } from './processes.ts';
import type { BenchSettings } from './settings.ts';
import { median, ratioOfRounds } from './stats.ts';

export type StoreName = 'memory' | 'sqlite' | 'postgres';

export const storeLabels: Record<StoreName, string> = { memory: 'memory', sqlite: 'SQLite', postgres: 'PostgreSQL' };

/** One case on one store: the server's figures, the answers of the warm-up and the rounds by status, and the database's own CPU time per request (PostgreSQL's; null for a store inside the server). */
export interface QuotaFigure extends ServerFigure {
  statuses: Record<string, number>;
  databaseCpuUsPerRequest: number | null;
}

export interface QuotaStoreResult {
  store: StoreName;
  /** Keys with quota left (200), keys with today's quota used up (429). */
  granted: QuotaFigure;
  refused: QuotaFigure;
  /** What did not add up, in words (a wrong status, keys run out). */
  problems: string[];
}

export interface QuotaResult {
  size: string;
  connections: number;
  /** Seconds per case, store and round; or `amount` requests. */
  durationS?: number;
  amount?: number;
  rounds: number;
  stores: QuotaStoreResult[];
  /** PostgreSQL / SQLite in requests per second, each the median of the rounds' ratios. */
  ratios: { granted: number; refused: number };
}

export interface QuotaTarget extends Measured {
  store: StoreName;
  /** The process whose descendants are the store's database server (PostgreSQL's), for their CPU time. */
  databasePid?: number;
}

type CaseName = 'granted' | 'refused';
const expected: Record<CaseName, number> = { granted: 200, refused: 429 };
const area = (size: string) => size.split('x').map(Number).reduce((a, b) => a * b, 1);

/** The smallest size image-gen paints. */
export const quotaSize: string = [...generationSizes].sort((a, b) => area(a) - area(b))[0]!;

/**
 * A reference server on each store, started at once (issuing thousands of keys one statement at a time takes
 * seconds); if one fails, the others are stopped again.
 */
export async function startStoreServers(options: { postgresUrl: string; sqliteDir: string; settings: BenchSettings['quota']; spawn?: SpawnOptions }): Promise<Array<{ store: StoreName; server: ServerProcess }>> {
  const locations: Record<StoreName, string> = { memory: 'memory', sqlite: join(options.sqliteDir, 'quota.sqlite'), postgres: options.postgresUrl };
  const keys = ['--image-keys', String(options.settings.keys), '--spent-keys', String(options.settings.spentKeys)];
  const started = await Promise.allSettled(
    (Object.keys(locations) as StoreName[]).map(async (store) => ({
      store,
      server: await startEntry(`quota on ${store}`, 'scripts/bench/reference-entry.ts', [...keys, '--store', locations[store]], { ...options.spawn, compiled: true, timeoutS: 120 }),
    })),
  );
  const servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    await Promise.all(servers.map((s) => s.server.close()));
    throw failed.reason;
  }
  return servers;
}

type RoundResult = Round & { databaseCpuUsPerRequest: number | null };

/** Warms every store's server up, then lets the stores take turns, each round running both cases on each. */
export async function measureQuotaPath(targets: QuotaTarget[], settings: BenchSettings['quota'], log: (line: string) => void): Promise<QuotaResult> {
  const { connections, warmupS, durationS, amount, rounds } = settings;
  const cases: CaseName[] = ['granted', 'refused'];
  const state = targets.map((t) => {
    const keys = { granted: keyRotation(t.server.ready.imageKeys as string[], imagesPerKey), refused: keyRotation(t.server.ready.spentKeys as string[]) };
    const spec = (c: CaseName) => imageRequest({ size: quotaSize, n: 1 }, keys[c].next, expected[c]);
    return {
      target: t,
      keys,
      specs: { granted: spec('granted'), refused: spec('refused') },
      statuses: { granted: {}, refused: {} } as Record<CaseName, Record<string, number>>,
      rounds: { granted: [], refused: [] } as Record<CaseName, RoundResult[]>,
    };
  });
  const count = (into: Record<string, number>, from: Record<string, number>) => {
    for (const [status, n] of Object.entries(from)) into[status] = (into[status] ?? 0) + n;
  };
  if (warmupS > 0) {
    for (const s of state) {
      log(`quota path: ${s.target.store}, warming up`);
      for (const c of cases) count(s.statuses[c], (await runLoad(s.target.server.baseUrl, s.specs[c], { connections, durationS: warmupS })).statuses);
    }
  }
  for (let round = 1; round <= rounds; round++) {
    for (const s of state) {
      log(`quota path: ${s.target.store}, round ${round} of ${rounds}`);
      const { databasePid } = s.target;
      for (const c of cases) {
        const databaseCpu = cpuMeter(() => (databasePid === undefined ? undefined : descendantsCpuTimeUs(databasePid)));
        const result = await measureRound(s.target, s.specs[c], { connections, durationS, amount });
        count(s.statuses[c], result.statuses);
        s.rounds[c].push({ ...result, databaseCpuUsPerRequest: databaseCpu.perRequest(result.requests) });
      }
    }
  }

  const stores = state.map((s): QuotaStoreResult => {
    const figures = { granted: summarise(s.rounds.granted, s.statuses.granted), refused: summarise(s.rounds.refused, s.statuses.refused) };
    const problems: string[] = [];
    for (const c of cases) {
      const wrong = Object.entries(figures[c].statuses).filter(([status]) => Number(status) !== expected[c]);
      if (wrong.length > 0) problems.push(`${c}: answers other than ${expected[c]} (${wrong.map(([status, n]) => `${n} × ${status}`).join(', ')})`);
    }
    if (s.keys.granted.excess > 0) problems.push(`granted: the keys ran out (${s.keys.granted.excess} requests over their quotas); give the server more`);
    return { store: s.target.store, ...figures, problems };
  });
  const of = (name: StoreName, c: CaseName) => stores.find((s) => s.store === name)?.[c].roundsRps ?? [];
  const ratio = (c: CaseName) => ratioOfRounds(of('postgres', c), of('sqlite', c))?.median ?? 0;
  return { size: quotaSize, connections, ...(amount !== undefined ? { amount } : { durationS }), rounds, stores, ratios: { granted: ratio('granted'), refused: ratio('refused') } };
}

function summarise(rounds: RoundResult[], statuses: Record<string, number>): QuotaFigure {
  const database = rounds.map((r) => r.databaseCpuUsPerRequest);
  return { ...serverFigure(rounds), statuses, databaseCpuUsPerRequest: database.some((c) => c === null) ? null : median(database as number[]) };
}
