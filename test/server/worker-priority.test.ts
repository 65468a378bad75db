/**
 * The engines' worker threads run below the event loop's CPU priority (decision D23), so that on a busy
 * machine the kernel serves the event loop first. Linux only: elsewhere the threads keep the process's.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { describe, expect, it } from 'vitest';
import { WORKER_NICENESS } from '../../src/server/workers/priority.ts';
import { INLINE_TEXT, startEngines } from '../../src/server/workers/engines.ts';

/** The nice value of each thread of this process (field 19 of /proc/self/task/<id>/stat). */
function threadNiceness(): Map<number, number> {
  const nice = new Map<number, number>();
  for (const id of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${id}/stat`, 'utf8');
      nice.set(Number(id), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      // the thread ended while we looked
    }
  }
  return nice;
}

describe.runIf(process.platform === 'linux')('worker threads yield to the event loop (decision D23)', () => {
  it(`run ${WORKER_NICENESS} nice levels below the process, which keeps its own`, async () => {
    const own = getPriority();
    const before = threadNiceness();
    const engines = startEngines({ text: { workers: 2, queue: 4 }, images: { workers: 1, queue: 4 } });
    try {
      // Text beyond what the event loop answers itself, so that the text workers start.
      const long = 'word '.repeat(INLINE_TEXT.characters);
      await Promise.all([
        engines.text.countChatTokens({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `Hello ${long}` }] }),
        engines.text.countChatTokens({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `there ${long}` }] }),
        engines.images.generate({ prompt: 'A boat', width: 64, height: 64, n: 1 }),
      ]);
      const lowered = [...threadNiceness()].filter(([id, nice]) => !before.has(id) && nice === Math.min(19, own + WORKER_NICENESS));
      // One per worker thread started (two text, one image), and any thread they start.
      expect(lowered.length).toBeGreaterThanOrEqual(3);
      expect(getPriority()).toBe(own);
      expect(threadNiceness().get(process.pid)).toBe(own);
    } finally {
      await engines.close();
    }
  });
});
