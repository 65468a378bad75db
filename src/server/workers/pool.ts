/**
 * A pool of worker threads for one engine's CPU work (decision D23): tokenizing and answering, decoding,
 * painting and encoding pictures never run on the event loop, so one heavy request cannot hold up the
 * others. At most `size` tasks run at once, at most `queue` more wait; a task beyond that is refused at once
 * with a 503 and `Retry-After`, rather than left to wait without bound.
 *
 * Workers start on the first task and are kept; an idle worker does not keep the process alive. A worker
 * that dies fails only its own task and is replaced.
 */
import { Worker } from 'node:worker_threads';
import { GatewayError, shuttingDown, unavailable, type ErrorKind } from '../domain/errors.ts';
import { startModuleWorker, workerBeside } from '../../lib/module-worker.ts';

/** The engines that run in workers: each worker loads one (see engine-worker.ts). */
export type EngineName = 'text' | 'images';

export interface PoolSize {
  /** Tasks running at once: one worker thread each. */
  workers: number;
  /** Tasks waiting for a worker; one more is answered 503. */
  queue: number;
}

/** What a worker answers for one task. */
export type TaskOutcome = { id: number; value: unknown } | { id: number; error: { message: string; kind?: ErrorKind; retryAfterSeconds?: number } };

interface Task {
  id: number;
  name: string;
  args: unknown[];
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/** Seconds a refused caller is told to wait: about the time a worker takes to finish a heavy task. */
const RETRY_AFTER_SECONDS = 1;

const entry = workerBeside(import.meta.url, 'engine-worker');

function startWorker(engine: EngineName, given: Record<string, unknown>): Worker {
  return startModuleWorker(entry, { ...given, engine });
}

export class WorkerPool {
  private readonly idle: Worker[] = [];
  private readonly running = new Map<Worker, Task>();
  private readonly waiting: Task[] = [];
  private workers = 0;
  private nextId = 0;
  private given: Record<string, unknown> | undefined;
  private closing: Promise<void> | undefined;
  private drained: (() => void) | undefined;

  constructor(
    readonly engine: EngineName,
    readonly size: PoolSize,
    /**
     * What every worker is given besides the engine's name, asked for when the first worker starts:
     * SharedArrayBuffers in it are shared by the workers, not copied (the text engine's vocabulary).
     */
    private readonly workerData: () => Record<string, unknown> = () => ({}),
  ) {}

  /**
   * Runs the engine's task `name` on `args` (structured-cloned to the worker) and resolves with its value.
   * The engine's own errors come back as the same GatewayError kinds.
   *
   * @example
   * const answer = await pool.run<ChatAnswer>('answerChat', [request]);
   */
  run<T>(name: string, args: unknown[]): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.closing) {
        reject(shuttingDown());
        return;
      }
      const task: Task = { id: this.nextId++, name, args, resolve: resolve as (value: unknown) => void, reject };
      const worker = this.idle.pop() ?? (this.workers < this.size.workers ? this.spawn() : undefined);
      if (worker) this.start(worker, task);
      else if (this.waiting.length < this.size.queue) this.waiting.push(task);
      else {
        reject(unavailable(`The server is busy with other ${this.engine === 'text' ? 'text' : 'image'} requests; try again in ${RETRY_AFTER_SECONDS} second.`, RETRY_AFTER_SECONDS));
      }
    });
  }

  /** Tasks running and waiting now. */
  get load(): { running: number; waiting: number } {
    return { running: this.running.size, waiting: this.waiting.length };
  }

  /** Whether a task given now would be refused: every worker busy (or none allowed), every waiting place taken. */
  get full(): boolean {
    return this.idle.length === 0 && this.workers >= this.size.workers && this.waiting.length >= this.size.queue;
  }

  /**
   * Refuses new tasks, lets those running and waiting finish, then stops the workers. A worker is never
   * terminated in the middle of a task: native image code would take the process down with it.
   */
  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      this.drained = resolve;
      this.stopWhenDrained();
    });
    return this.closing;
  }

  private stopWhenDrained(): void {
    if (!this.drained || this.running.size > 0 || this.waiting.length > 0) return;
    const workers = this.idle.splice(0);
    const done = this.drained;
    this.drained = undefined;
    void Promise.all(workers.map((worker) => worker.terminate())).then(() => done());
  }

  private spawn(): Worker {
    const worker = startWorker(this.engine, (this.given ??= this.workerData()));
    this.workers++;
    worker.on('message', (outcome: TaskOutcome) => {
      const task = this.running.get(worker);
      if (!task || task.id !== outcome.id) return;
      if ('error' in outcome) {
        const { kind, message, retryAfterSeconds } = outcome.error;
        task.reject(kind ? new GatewayError(kind, message, retryAfterSeconds) : new Error(`${this.engine} engine: ${message}`));
      } else task.resolve(outcome.value);
      this.next(worker);
    });
    worker.on('error', (error) => {
      this.running.get(worker)?.reject(error);
      this.running.delete(worker);
    });
    worker.on('exit', () => {
      this.workers--;
      const lost = this.running.get(worker);
      this.running.delete(worker);
      lost?.reject(new Error(`The ${this.engine} worker stopped during the task.`));
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
      // Tasks that were waiting for this worker get a new one.
      const task = this.waiting.shift();
      if (task) this.start(this.spawn(), task);
      this.stopWhenDrained();
    });
    return worker;
  }

  private start(worker: Worker, task: Task): void {
    this.running.set(worker, task);
    worker.ref();
    worker.postMessage({ id: task.id, name: task.name, args: task.args });
  }

  private next(worker: Worker): void {
    this.running.delete(worker);
    const task = this.waiting.shift();
    if (task) return this.start(worker, task);
    this.idle.push(worker);
    worker.unref();
    this.stopWhenDrained();
  }
}
