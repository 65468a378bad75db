/**
 * The quota-heavy path on each store: image requests of the smallest size the reference model paints, n = 1,
 * so that what the store does for each request (read the key by its hash, reserve the image in one atomic
 * statement) weighs as much as it can against the painting. Two cases: keys with quota left, every answer a
 * 200; and keys whose quota is used up, every answer a 429 given right after the refused reservation, with
 * nothing painted. Afterwards each store's own counts are read back and must match the answers.
 */
import { dailyImageQuota } from '../../src/contract/index.ts';
import { generationSizes } from '../../src/server/domain/engine/images/limits.ts';
import { cpuTimeUs, descendantsCpuTimeUs } from './cpu.ts';
import { runLoad, summariseRounds, type LoadResult, type LoadSpec } from './load.ts';
import type { ServerProcess } from './processes.ts';
import type { QuotaFigure, QuotaResult, QuotaStoreResult, StoreName } from './results.ts';
import type { RssSampler } from './rss.ts';
import type { BenchSettings } from './settings.ts';
import { percentile } from './stats.ts';

export interface QuotaTarget {
  store: StoreName;
  server: ServerProcess;
  rss: RssSampler;
  /** The process whose descendants are the store's database server (PostgreSQL's), for their CPU time. */
  databasePid?: number;
}

type CaseName = 'granted' | 'refused';
const expected: Record<CaseName, number> = { granted: 200, refused: 429 };

/** The smallest size image-gen paints. */
export const quotaSize: string = [...generationSizes].sort((a, b) => area(a) - area(b))[0]!;

function area(size: string): number {
  const [w = 0, h = 0] = size.split('x').map(Number);
  return w * h;
}

/**
 * Hands out the keys in turn, one request each, so that requests at once reserve on different keys, as
 * many clients' would (not 16 requests queued on one row's lock); no key gets more than `perKey` requests.
 * Past that it carries on from the first key and counts the excess, whose answers are then 429 and reported.
 *
 * @example
 *   const keys = keyRotation(['sk-a', 'sk-b'], 50);
 *   keys.next(); // 'sk-a'
 *   keys.next(); // 'sk-b'
 */
export function keyRotation(keys: readonly string[], perKey = Number.POSITIVE_INFINITY): { next(): string; readonly handed: number; readonly excess: number } {
  if (keys.length === 0) throw new Error('the quota path needs keys; the server issued none');
  let handed = 0;
  return {
    next: () => keys[handed++ % keys.length]!,
    get handed() {
      return handed;
    },
    get excess() {
      return Math.max(0, handed - keys.length * perKey);
    },
  };
}

function quotaRequest(next: () => string, status: number): LoadSpec {
  return {
    method: 'POST',
    path: '/v1/generation/image?model=image-gen',
    headers: { 'content-type': 'application/json' },
    // A different prompt each time, so that every granted image is drawn, not remembered.
    body: JSON.stringify({ prompt: 'A lighthouse on a cliff at dusk, oil painting, [<id>]', size: quotaSize, n: 1 }),
    idReplacement: true,
    setupRequest: (request) => ({ ...request, headers: { ...request.headers, 'x-api-key': next() } }),
    expectStatus: status,
  };
}

type RoundResult = LoadResult & { cpuUsPerRequest: number | null; databaseCpuUsPerRequest: number | null };

/**
 * Warms every store's server up, then lets the stores take turns, each round running both cases on each.
 *
 * @example
 *   const quota = await measureQuotaPath(targets, fullSettings.quota, console.log);
 *   quota.ratios.granted // PostgreSQL / SQLite, requests per second
 */
export async function measureQuotaPath(targets: QuotaTarget[], settings: BenchSettings['quota'], log: (line: string) => void): Promise<QuotaResult> {
  const { connections, warmupS, durationS, amount, rounds } = settings;
  const perKey = dailyImageQuota('ultimate');
  const state = targets.map((t) => {
    const keys = { granted: keyRotation(t.server.ready.imageKeys as string[], perKey), refused: keyRotation(t.server.ready.spentKeys as string[]) };
    return {
      target: t,
      keys,
      specs: { granted: quotaRequest(keys.granted.next, expected.granted), refused: quotaRequest(keys.refused.next, expected.refused) },
      statuses: { granted: {}, refused: {} } as Record<CaseName, Record<string, number>>,
      rounds: { granted: [], refused: [] } as Record<CaseName, RoundResult[]>,
      rss: t.rss.phase(),
    };
  });
  const cases: CaseName[] = ['granted', 'refused'];
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
      for (const c of cases) {
        const { pid } = s.target.server;
        const cpuBefore = cpuTimeUs(pid);
        const dbBefore = s.target.databasePid === undefined ? undefined : descendantsCpuTimeUs(s.target.databasePid);
        const result = await runLoad(s.target.server.baseUrl, s.specs[c], { connections, durationS, amount });
        const cpuAfter = cpuTimeUs(pid);
        const dbAfter = s.target.databasePid === undefined ? undefined : descendantsCpuTimeUs(s.target.databasePid);
        const perRequest = (before?: number, after?: number) => (before !== undefined && after !== undefined && result.requests > 0 ? (after - before) / result.requests : null);
        count(s.statuses[c], result.statuses);
        s.rounds[c].push({ ...result, cpuUsPerRequest: perRequest(cpuBefore, cpuAfter), databaseCpuUsPerRequest: perRequest(dbBefore, dbAfter) });
      }
    }
  }

  const stores: QuotaStoreResult[] = [];
  for (const s of state) {
    const rssPeakMb = s.rss.end();
    const granted = summarise(s.rounds.granted, s.statuses.granted);
    const refused = summarise(s.rounds.refused, s.statuses.refused);
    const check = { ...(await readBack(s.target.server, perKey)), answered200: s.statuses.granted['200'] ?? 0, sent: s.keys.granted.handed };
    const problems: string[] = [];
    for (const [c, figure] of [['granted', granted], ['refused', refused]] as const) {
      const wrong = Object.entries(figure.statuses).filter(([status]) => Number(status) !== expected[c]);
      if (wrong.length > 0) problems.push(`${c}: answers other than ${expected[c]} (${wrong.map(([status, n]) => `${n} × ${status}`).join(', ')})`);
      if (figure.errors > 0) problems.push(`${c}: ${figure.errors} connection errors (${Object.entries(figure.errorKinds).map(([k, n]) => `${n} × ${k}`).join(', ')})`);
    }
    if (s.keys.granted.excess > 0) problems.push(`granted: the keys ran out (${s.keys.granted.excess} requests over their quotas); give the server more`);
    // A timed load stops with a request in flight on each connection: the server reserved its image, the client
    // stopped waiting. So the count lies between the 200s and the requests sent, which differ by those alone.
    if (check.imagesCounted < check.answered200 || check.imagesCounted > check.sent) {
      problems.push(`the store counted ${check.imagesCounted} images for ${check.answered200} answers 200 and ${check.sent} requests sent`);
    }
    if (check.spentKeysChanged > 0) problems.push(`${check.spentKeysChanged} spent keys no longer counted at exactly their quota`);
    stores.push({ store: s.target.store, granted, refused, rssPeakMb, check, problems });
  }
  const byStore = (name: StoreName) => stores.find((s) => s.store === name);
  return {
    size: quotaSize,
    connections,
    ...(amount !== undefined ? { amount } : { durationS }),
    rounds,
    stores,
    ratios: { granted: roundRatio(byStore('postgres')?.granted, byStore('sqlite')?.granted), refused: roundRatio(byStore('postgres')?.refused, byStore('sqlite')?.refused) },
  };
}

/**
 * Today's counts of the server's bench keys, through the admin API (so the same for every store): the
 * images counted over the granted keys, and how many spent keys moved off their quota. (A run across
 * midnight UTC would start a new day and fail this check.)
 */
async function readBack(server: ServerProcess, quota: number): Promise<{ imagesCounted: number; spentKeysChanged: number }> {
  const res = await fetch(`${server.baseUrl}/dashboard/api/keys`, { headers: { 'x-admin-token': server.ready.adminToken as string } });
  if (!res.ok) throw new Error(`GET /dashboard/api/keys on ${server.name} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  const { keys } = (await res.json()) as { keys: Array<{ name: string; imageUsage: { used: number } }> };
  const named = (prefix: string) => keys.filter((k) => k.name.startsWith(prefix));
  return {
    imagesCounted: named('bench images ').reduce((n, k) => n + k.imageUsage.used, 0),
    spentKeysChanged: named('bench spent ').filter((k) => k.imageUsage.used !== quota).length,
  };
}

function summarise(rounds: RoundResult[], statuses: Record<string, number>): QuotaFigure {
  const cpu = (pick: (r: RoundResult) => number | null) => (rounds.some((r) => pick(r) === null) ? null : percentile(rounds.map((r) => pick(r)!), 50));
  return {
    ...summariseRounds(rounds),
    statuses,
    cpuUsPerRequest: cpu((r) => r.cpuUsPerRequest),
    databaseCpuUsPerRequest: cpu((r) => r.databaseCpuUsPerRequest),
  };
}

/** The median of the rounds' ratios, as for the HTTP figures: the two stores of a ratio ran seconds apart. */
function roundRatio(a: QuotaFigure | undefined, b: QuotaFigure | undefined): number {
  if (!a || !b) return 0;
  const ratios = a.roundsRps.map((rps, i) => ((b.roundsRps[i] ?? 0) > 0 ? rps / b.roundsRps[i]! : 0)).sort((x, y) => x - y);
  return ratios[Math.floor((ratios.length - 1) / 2)] ?? 0;
}
