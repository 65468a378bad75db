/**
 * The README's "A first run" tells the truth: its commands, read from the README itself, run twice in a row
 * against one fresh reference server (the same day, so the image quota they spend must last), each exiting 0.
 * Two things differ from a reader's terminal: the server's address (a free port, not 8080) and the folder
 * the pictures go to (a temporary one, not ./out).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import { root, run } from './run.ts';

const MARKER = '<!-- first-run:';

/** The commands of the sh block that follows the marker, one per command (continued lines joined). */
function firstRunCommands(readme: string): string[] {
  const from = readme.indexOf(MARKER);
  if (from < 0) throw new Error(`README.md has no ${MARKER} block`);
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(from))![1]!;
  return block
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter(Boolean);
}

let server: TestServer;
const out = mkdtempSync(join(tmpdir(), 'gateway-first-run-'));
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
  rmSync(out, { recursive: true, force: true });
});

describe("the README's first run", () => {
  const commands = firstRunCommands(readFileSync(join(root, 'README.md'), 'utf8'));

  it('has commands for the API, the examples with curl, streaming and images', () => {
    expect(commands.length).toBeGreaterThanOrEqual(5);
    expect(commands.some((c) => c.includes('examples/images.ts'))).toBe(true);
  });

  it('works top to bottom, twice in a row on the same day', async () => {
    for (const pass of [1, 2]) {
      for (const command of commands) {
        const line = command.replaceAll('http://127.0.0.1:8080', server.baseUrl).replaceAll('./out', out);
        const result = await run('sh', ['-c', line], { env: { GATEWAY_URL: server.baseUrl } });
        expect(result.code, `pass ${pass}: ${command}\n${result.stdout.slice(-500)}\n${result.stderr}`).toBe(0);
        if (line.startsWith('curl')) expect(result.stdout, command).not.toContain('"error"');
      }
    }
    expect(readFileSync(join(out, 'generated.png')).subarray(1, 4).toString()).toBe('PNG');
  }, 120_000);
});
