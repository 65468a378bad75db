/**
 * The server's log, caught in memory: pass `sink.logger` as `buildApp`'s `logger` and read `sink.entries`.
 * Tests observe what the server reports to its operators (an unexpected fault, a stream the client left)
 * the way an operator would, from the outside.
 *
 * @example
 *   const sink = logSink();
 *   const server = await startServer({ logger: sink.logger });
 *   await vi.waitFor(() => expect(sink.count(STREAM_ABANDONED)).toBe(1));
 */
import { Writable } from 'node:stream';

/** The message the server logs when a client leaves an event stream before its end. */
export const STREAM_ABANDONED = 'event stream closed by the client before its end';

export interface LogSink {
  logger: { level: string; stream: Writable };
  entries: Array<Record<string, unknown> & { msg?: string }>;
  /** How many entries have this message. */
  count(msg: string): number;
}

export function logSink(level = 'info'): LogSink {
  const entries: LogSink['entries'] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) entries.push(JSON.parse(line));
      done();
    },
  });
  return { logger: { level, stream }, entries, count: (msg) => entries.filter((e) => e.msg === msg).length };
}
