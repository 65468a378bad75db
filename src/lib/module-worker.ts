/**
 * A worker thread running a module of this project, from its sources or compiled: a `.ts` module runs under
 * tsx (tests, scripts), and so must its worker, which then registers tsx before importing it; compiled, it
 * is plain JavaScript beside its caller.
 *
 * @example
 *   const worker = startModuleWorker(new URL('./engine-worker.ts', import.meta.url), { engine: 'text' });
 */
import { Worker } from 'node:worker_threads';

export function startModuleWorker(entry: URL, workerData: unknown): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, { workerData });
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(boot, { eval: true, workerData });
}

/** The URL of a worker module beside the caller: `name.ts` when the caller runs from its sources, else `name.js`. */
export function workerBeside(callerUrl: string, name: string): URL {
  return new URL(`./${name}${callerUrl.endsWith('.ts') ? '.ts' : '.js'}`, callerUrl);
}
