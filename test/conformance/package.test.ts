// The suite as a package of its own: `npm run pack:conformance` builds and packs it, the .tgz installs in an
// empty folder with nothing else (no Fastify, sharp or SQLite), and `gateway-conformance` runs from there
// against a running reference server, as another team's CI would run it.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root, run } from '../examples/run.ts';
import { useServer } from '../helpers/server.ts';

const server = useServer();

describe('the ai-gateway-conformance package', () => {
  it('packs, installs alone in an empty project, and runs its command there', async () => {
    const packed = await run('npm', ['run', '-s', 'pack:conformance'], { cwd: root });
    expect(packed.code, packed.stderr).toBe(0);
    const tgz = packed.stdout.trim().split('\n').at(-1)!;
    expect(tgz).toMatch(/ai-gateway-conformance-\d+\.\d+\.\d+\.tgz$/);

    const project = await mkdtemp(join(tmpdir(), 'gateway-conformance-user-'));
    try {
      await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'their-gateway', private: true }));
      const installed = await run('npm', ['install', '--no-audit', '--no-fund', '--offline', tgz], { cwd: project });
      expect(installed.code, installed.stderr).toBe(0);
      expect((await readdir(join(project, 'node_modules'))).filter((name) => !name.startsWith('.'))).toEqual(['ai-gateway-conformance']);
      const manifest = JSON.parse(await readFile(join(project, 'node_modules/ai-gateway-conformance/package.json'), 'utf8'));
      expect(manifest).toMatchObject({ license: 'MIT', dependencies: {}, bin: { 'gateway-conformance': 'dist/bin.js' } });

      const bin = join(project, 'node_modules', '.bin', 'gateway-conformance');
      const version = await run(bin, ['--version'], { cwd: project });
      expect(version.stdout).toMatch(/^gateway-conformance \d+\.\d+\.\d+; contracts: gateway "AI Model Gateway API" [^;]+; openai "OpenAI protocol[^"]*" [^;]+; anthropic /);
      const verdict = await run(bin, ['--base-url', server.baseUrl, '--key', 'starter=sk-demo-starter', '--key', 'ultimate=sk-demo-ultimate', '--quiet', '--junit', 'reports/conformance.xml', '--html', 'reports/conformance.html'], { cwd: project });
      expect(verdict.code, verdict.stdout.slice(-2000)).toBe(0);
      expect(verdict.stdout).toMatch(/✓ \d+ passed, 0 failed/);
      expect(await readFile(join(project, 'reports/conformance.xml'), 'utf8')).toMatch(/<testsuites name="gateway-conformance gateway \(core\)/);
      expect(await readFile(join(project, 'reports/conformance.html'), 'utf8')).toMatch(/✓ conforms — \d+ passed, 0 failed/);
      // The vendor protocols' descriptions travel with it.
      const anthropic = await run(bin, ['--base-url', server.baseUrl, '--contract', 'anthropic', '--key', 'sk-demo-ultimate', '--quiet'], { cwd: project });
      expect(anthropic.code, anthropic.stdout.slice(-2000)).toBe(0);
      expect(anthropic.stdout).toMatch(/to anthropic[\s\S]*✓ \d+ passed, 0 failed/);
      // The proxy, whose judge runs in a thread of its own module.
      const proxy = spawn(bin, ['proxy', '--upstream', server.baseUrl, '--port', '0'], { cwd: project });
      let said = '';
      proxy.stderr.on('data', (d) => (said += d));
      const proxyUrl = await new Promise<string>((resolve) => proxy.stderr.on('data', () => { const m = /proxy: (http:\S+)/.exec(said); if (m) resolve(m[1]!); }));
      expect((await fetch(`${proxyUrl}/v1/models`)).status).toBe(200);
      let printed = '';
      proxy.stdout.on('data', (d) => (printed += d));
      const exited = new Promise<number | null>((resolve) => proxy.once('exit', resolve));
      await new Promise((resolve) => setTimeout(resolve, 200));
      proxy.kill('SIGTERM');
      expect(await exited, said).toBe(0);
      expect(printed).toMatch(/✓ 1 exchange: 1 conformed, 0 broke a rule/);
    } finally {
      await rm(project, { recursive: true, force: true });
    }
  }, 120_000);
});
