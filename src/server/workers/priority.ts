/**
 * The engines' worker threads run at a lower CPU priority than the event loop (decision D23). On a machine
 * with fewer cores than busy threads, the kernel then gives the event loop the core first: the small
 * requests every client is waiting on (a model listing, the next event of a stream, a 401) go ahead of
 * the heavy ones the workers are chewing on, which wait a moment longer.
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** How much lower: a nice value added to the process's own (0 normal, 19 the lowest). */
export const WORKER_NICENESS = 10;

/**
 * Lowers the priority of the calling thread by `WORKER_NICENESS`, and says whether it could. Linux schedules
 * threads, and `/proc/thread-self` names the calling one; elsewhere the same call would lower the whole
 * process, so nothing is done.
 *
 * @example
 * lowerThisThreadsPriority(); // in a worker thread, before its first task
 */
export function lowerThisThreadsPriority(): boolean {
  let threadId: number;
  try {
    threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
  } catch {
    return false;
  }
  try {
    // Relative to what the thread has now: an operator who started the server under `nice` keeps that.
    setPriority(threadId, Math.min(19, getPriority(threadId) + WORKER_NICENESS));
    return true;
  } catch {
    return false;
  }
}
