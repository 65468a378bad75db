/** The Arazzo workflows: `redocly lint` finds nothing, and `redocly respect` runs them green against the reference server. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startServer } from '../helpers/server.ts';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const redocly = `${root}node_modules/.bin/redocly`;
const workflows = 'openapi/arazzo/gateway.arazzo.yaml';

describe('openapi/arazzo/gateway.arazzo.yaml', () => {
  it('lints clean', async () => {
    const { stdout, stderr } = await run(redocly, ['lint', workflows], { cwd: root });
    expect(`${stdout}${stderr}`).toMatch(/Your API description is valid/);
    expect(`${stdout}${stderr}`).not.toMatch(/You have \d+ warnings?/);
  });

  it('runs every workflow green against the reference server', async () => {
    const server = await startServer({ store: 'memory' });
    try {
      const result = await run(redocly, ['respect', workflows, '--server', `gateway=${server.baseUrl}`, '--input', 'apiKey=sk-demo-starter'], { cwd: root })
        .catch((e: { stdout: string; stderr: string; code: number }) => e);
      expect('code' in result ? result.code : 0, `${result.stdout}\n${result.stderr}`).toBe(0);
      expect(result.stdout).toMatch(/Workflows: 5 passed, 5 total/);
    } finally {
      await server.close();
    }
  }, 120_000);
});
