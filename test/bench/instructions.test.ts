/**
 * Instructions per request under callgrind (`npm run bench -- --baseline <ref> --instructions`): the compiled
 * server started under valgrind answers, and the instructions of a counted number of requests come back as
 * a figure per request. Skipped where valgrind is not installed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildServer } from '../../scripts/build-server.ts';
import { countInstructions, countsSettled, haveCallgrind } from '../../scripts/bench/instructions.ts';
import type { ReplayServer } from '../../scripts/bench/replies.ts';
import { root } from '../../scripts/lib/paths.ts';
import { serverLaunch } from '../../scripts/lib/server-launch.ts';

describe.runIf(process.platform === 'linux' && haveCallgrind())('countInstructions', () => {
  it('counts the instructions of each kind of request on the compiled server', async () => {
    const launch = serverLaunch();
    const counts = await countInstructions({
      build: await buildServer(),
      cwd: root,
      nodeFlags: launch.nodeFlags,
      env: launch.env,
      kinds: ['models', 'chat'],
      warmup: 20,
      requests: 10,
      log: () => {},
    });
    for (const kind of ['models', 'chat'] as const) {
      const { passes, compiler } = counts[kind]!;
      // Counted twice, and again (up to four times) until the counts have settled; the lowest is the figure.
      expect(passes.length).toBeGreaterThanOrEqual(2);
      expect(passes.length).toBeLessThanOrEqual(4);
      if (passes.length < 4) expect(countsSettled(passes, compiler)).toBe(true);
      if (passes.length > 2) expect(countsSettled(passes.slice(0, -1), compiler.slice(0, -1))).toBe(false);
      expect(counts[kind]!.perRequest).toBe(Math.min(...passes));
      expect(counts[kind]).toMatchObject({ requests: 10 * passes.length, failed: 0 });
      // V8's optimizing compiler is counted apart (it runs while these few requests warm the code up).
      expect(counts[kind]!.compiler).toHaveLength(passes.length);
      expect(counts[kind]!.compiler.some((n) => n > 0)).toBe(true);
      // Answering a request over HTTP takes tens of thousands of instructions at the very least.
      expect(counts[kind]!.perRequest).toBeGreaterThan(20_000);
    }
    // The chat answer is made by the text engine besides: more work than the listing.
    expect(counts.chat!.perRequest).toBeGreaterThan(counts.models!.perRequest);
  }, 600_000);

  it('counts bare node:http replaying an answer, a stream one event per write, and Fastify alone replaying it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-bare-'));
    try {
      const events = Array.from({ length: 50 }, (_, i) => `data: {"i":${i}}\n\n`).join('');
      const reply = (type: string, body: string) => ({ status: 200, headers: { 'content-type': type }, body: Buffer.from(body).toString('base64') });
      const count = async (name: string, answer: ReturnType<typeof reply>, server: ReplayServer = 'bare') => {
        const replies = join(dir, `${name}.json`);
        writeFileSync(replies, JSON.stringify({ 'GET /v1/models': answer }));
        const counts = await countInstructions({ replay: { server, replies }, nodeFlags: [], env: {}, kinds: ['models'], warmup: 20, requests: 10, log: () => {} });
        expect(counts.models).toMatchObject({ requests: 10 * counts.models!.passes.length, failed: 0 });
        return counts.models!.perRequest;
      };
      // The three counted side by side: valgrind runs each server in one thread, and they share nothing (94 s
      // one after another in CI, 44 s together).
      const [json, stream, fastify] = await Promise.all([
        count('json', reply('application/json', '{"data":[]}')),
        count('stream', reply('text/event-stream', events)),
        count('fastify', reply('application/json', '{"data":[]}'), 'fastify'),
      ]);
      expect(json).toBeGreaterThan(5_000);
      // Fifty writes cost node:http more than one.
      expect(stream).toBeGreaterThan(json);
      // Fastify alone replays it too (what it costs against bare is the comparison's to measure: a few
      // requests' counts are mostly the JIT's first work, and the two differ by less than they move).
      expect(fastify).toBeGreaterThan(5_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 600_000);
});
