/**
 * The suite against the reference implementation: the full profile, destructive, with one key per tier,
 * finds nothing; so does the command line in the core profile, which also writes its JUnit and JSON files.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/conformance/cli.ts';
import { formatReport } from '../../src/conformance/report/console.ts';
import { runConformance } from '../../src/conformance/run.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { demoKeys } from './helpers/keys.ts';

let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('against the reference implementation', () => {
  it('conforms in the full profile, destructive, with every tier', async () => {
    server = await startServer({ store: 'memory' });
    const report = await runConformance({ baseUrl: server.baseUrl, profile: 'full', destructive: true, keys: demoKeys });
    expect(report.summary.failed, formatReport(report)).toBe(0);
    // Skipped only where the listing leaves nothing to try (no model above the ultimate tier).
    expect(report.results.filter((r) => r.outcome === 'skipped').map((r) => r.id)).toEqual(['general/tiers/ultimate-refused']);
    expect(report.results.filter((r) => r.family === 'quota').map((r) => r.outcome)).toEqual(['passed', 'passed', 'passed', 'passed']);
  });

  it('conforms in the core profile through the command line, which writes JUnit and JSON', async () => {
    server = await startServer({ store: 'memory' });
    const dir = mkdtempSync(join(tmpdir(), 'conformance-'));
    try {
      let out = '';
      const sink = (into: (s: string) => void) =>
        new Writable({ write: (c, _e, done) => { into(c.toString()); done(); } });
      let progress = '';
      const argv = ['--base-url', server.baseUrl, '--key', `starter=${demoKeys.starter}`, '--key', `pro=${demoKeys.pro}`,
        '--junit', join(dir, 'report.xml'), '--json', join(dir, 'report.json')];
      const status = await main(argv, sink((s) => (out += s)), sink((s) => (progress += s)));
      expect(status, out).toBe(0);
      expect(progress).toMatch(/^\[ *1\/\d+\] ✓ /);
      expect(out).toMatch(/✓ \d+ passed, 0 failed/);
      const json = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
      expect(json).toMatchObject({ profile: 'core', destructive: false, summary: { failed: 0 } });
      expect(readFileSync(join(dir, 'report.xml'), 'utf8')).toMatch(/<testsuites [^>]*failures="0"/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
