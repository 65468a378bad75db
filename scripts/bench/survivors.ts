/**
 * What outlives the young generation, per request (`npm run bench -- --baseline <ref> --survivors`): each build's
 * server is started with survivors-preload.ts, warmed up, and loaded while V8's sampling heap profiler keeps
 * the objects young collections could not free. A request's objects should all die young; what survives is
 * copied, promoted and marked again by a full collection, so that a few KB of it per request cost more
 * than the allocation of the rest (the third round of issue 30: an object literal's getter held every chat
 * request until the next full collection, and garbage collection cost three times the baseline's). The
 * figure is the sampled bytes per request, with the allocation sites that hold most of them.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { runLoad, type LoadSpec } from './load.ts';
import type { ServerProcess } from './processes.ts';

export interface Survivors {
  /** Sampled bytes per request of objects that outlived a young collection. */
  bytesPerRequest: number;
  /** Requests answered while the profiler sampled. */
  requests: number;
  /** The allocation sites (function, file:line) holding most of them, bytes per request. */
  top: Array<{ site: string; bytesPerRequest: number }>;
}

interface SamplingNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children: SamplingNode[];
}
interface SamplingProfile {
  head: SamplingNode;
  samples: Array<{ nodeId: number; size: number }>;
}

/** The compiled preload in a build of this tree, to give the servers of both builds with `--import`. */
export function survivorsPreload(build: string): string {
  return join(build, 'scripts', 'bench', 'survivors-preload.js');
}

/** The file the preload of a server writes its profile to: set it in the server's environment. */
export const SURVIVORS_FILE_VARIABLE = 'BENCH_SURVIVORS_FILE';

/**
 * Loads a server started with the preload and `BENCH_SURVIVORS_FILE=file`: `warmupS` seconds unsampled, then
 * `durationS` sampled; reads what survived.
 *
 * @example
 *   const survivors = await measureSurvivors(server, kindRequest('chat', key, 1), file, { connections: 50, warmupS: 2, durationS: 4 });
 */
export async function measureSurvivors(
  server: ServerProcess,
  spec: LoadSpec,
  file: string,
  settings: { connections: number; warmupS: number; durationS: number },
): Promise<Survivors> {
  rmSync(file, { force: true });
  if (settings.warmupS > 0) await runLoad(server.baseUrl, spec, { connections: settings.connections, durationS: settings.warmupS });
  process.kill(server.pid, 'SIGUSR2');
  const load = await runLoad(server.baseUrl, spec, { connections: settings.connections, durationS: settings.durationS });
  process.kill(server.pid, 'SIGUSR2');
  for (let waited = 0; !existsSync(file); waited += 50) {
    if (waited > 20_000) throw new Error(`the server wrote no heap profile to ${file} (was it started with the survivors preload?)`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // Written whole by one writeFileSync; read once it parses.
  let profile: SamplingProfile | undefined;
  for (let tries = 0; !profile; tries++) {
    try {
      profile = JSON.parse(readFileSync(file, 'utf8')) as SamplingProfile;
    } catch (error) {
      if (tries > 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return survivorsOf(profile, Math.max(1, load.requests));
}

/** Bytes per request in a sampling profile, in all and by allocation site. */
export function survivorsOf(profile: SamplingProfile, requests: number): Survivors {
  const bytesOf = new Map<number, number>();
  for (const sample of profile.samples) bytesOf.set(sample.nodeId, (bytesOf.get(sample.nodeId) ?? 0) + sample.size);
  const bySite = new Map<string, number>();
  let total = 0;
  const stack = [profile.head];
  while (stack.length > 0) {
    const node = stack.pop()!;
    stack.push(...node.children);
    const bytes = bytesOf.get(node.id) ?? 0;
    if (bytes === 0) continue;
    total += bytes;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url.startsWith('file://') ? relative(process.cwd(), new URL(url).pathname).replace(/^.*?(src|scripts|node_modules)\//, '$1/') : url;
    const site = `${functionName || '(anonymous)'} ${where ? `${where}:${lineNumber + 1}` : ''}`.trim();
    bySite.set(site, (bySite.get(site) ?? 0) + bytes);
  }
  const top = [...bySite]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([site, bytes]) => ({ site, bytesPerRequest: bytes / requests }));
  return { bytesPerRequest: total / requests, requests, top };
}
