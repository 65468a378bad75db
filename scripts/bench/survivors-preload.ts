/**
 * Loaded into a server the comparison of builds measures (`node --import <this, compiled>`, with
 * `--survivors`): on SIGUSR2 it starts V8's sampling heap profiler in the server's own process, keeping the
 * objects that full collections free but not those that young collections free, and on the next SIGUSR2
 * writes the profile to `BENCH_SURVIVORS_FILE`. What it holds is what outlived the young generation: a
 * request's objects should die young, and each one that does not is copied, promoted and later marked by a
 * full collection (survivors.ts reads the profile). It uses node's own modules only, so that another
 * commit's build, which has no copy of it, can load this one.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

const file = process.env.BENCH_SURVIVORS_FILE;
if (file) {
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
  let sampling = false;
  process.on('SIGUSR2', () => {
    const step = sampling
      ? post('HeapProfiler.stopSampling').then((result) => writeFileSync(file, JSON.stringify((result as { profile: unknown }).profile)))
      : post('HeapProfiler.enable').then(() =>
          post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: false }),
        );
    sampling = !sampling;
    step.catch((error: Error) => process.stderr.write(`survivors: ${error.message}\n`));
  });
}
