/**
 * The body of a worker thread of a pool (pool.ts): loads one engine, then runs the tasks it is sent, one at
 * a time, and answers each with its value or its error. Only the engine named in `workerData` is loaded, so a
 * text worker holds no image code and an image worker no tokenizer.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { GatewayError } from '../domain/errors.ts';
import type { EngineName, TaskOutcome } from './pool.ts';
import { lowerThisThreadsPriority } from './priority.ts';

type Tasks = Record<string, (...args: never[]) => unknown>;

lowerThisThreadsPriority();

const engine = (workerData as { engine: EngineName }).engine;
const tasks: Tasks = engine === 'text' ? await import('./text-tasks.ts') : await import('./image-tasks.ts');

parentPort!.on('message', async ({ id, name, args }: { id: number; name: string; args: never[] }) => {
  let outcome: TaskOutcome;
  try {
    const task = tasks[name];
    if (!task) throw new Error(`no task '${name}' in the ${engine} engine`);
    outcome = { id, value: await task(...args) };
  } catch (error) {
    outcome =
      error instanceof GatewayError
        ? { id, error: { message: error.message, kind: error.kind, ...(error.retryAfterSeconds !== undefined && { retryAfterSeconds: error.retryAfterSeconds }) } }
        : { id, error: { message: error instanceof Error ? (error.stack ?? error.message) : String(error) } };
  }
  parentPort!.postMessage(outcome);
});
