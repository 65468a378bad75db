// The client as another project gets it: built by tsconfig.build.json, installed under the package's name,
// imported as 'ai-gateway-contract/client' by TypeScript (types) and by Node (code) through package.json's
// "exports". Runs once package.json exports "./client".
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../helpers/server.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tsc = join(root, 'node_modules/.bin/tsc');
const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { name: string; exports?: Record<string, unknown> };
const execFileAsync = promisify(execFile);
/** Runs a command; on failure the error carries what it printed (tsc reports on stdout). */
const sh = (command: string, args: string[], options: { cwd?: string } = {}) =>
  execFileAsync(command, args, options).catch((error: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(`${error.message}\n${error.stdout ?? ''}${error.stderr ?? ''}`);
  });

/** A TypeScript consumer: only type-checked, to prove the installed declarations are the real types. */
const typedConsumer = `
import { createGatewayClient, type ChatCompletion } from '${pkg.name}/client';

const client = createGatewayClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: 'sk-demo-starter' });
const { data, error } = await client.POST('/v1/chat/completions', { body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] } });
export const message: string = error ? error.error : (data satisfies ChatCompletion).object;
// @ts-expect-error the installed types reject a wrong body
void client.POST('/v1/chat/completions', { body: { model: 'gpt-4o-mini' } });
`;

/** A JavaScript consumer, run by Node. */
const runtimeConsumer = `
import { createGatewayClient } from '${pkg.name}/client';

const client = createGatewayClient({ baseUrl: process.argv[2], apiKey: 'sk-demo-starter' });
const { data, error } = await client.POST('/v1/chat/completions', { body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] } });
if (error) throw new Error(error.error);
console.log(data.object);
`;

describe.runIf(pkg.exports?.['./client'])(`${pkg.name}/client, built and installed`, () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it('type-checks and runs in a project that installed it', { timeout: 60_000 }, async () => {
    const project = await mkdtemp(join(tmpdir(), 'gateway-consumer-'));
    dirs.push(project);
    // The package as npm would lay it out: package.json, the built client, the generated types it refers to.
    const installed = join(project, 'node_modules', pkg.name);
    await mkdir(join(installed, 'generated'), { recursive: true });
    await sh(tsc, ['-p', join(root, 'tsconfig.build.json'), '--outDir', join(installed, 'dist/client')]);
    await cp(join(root, 'package.json'), join(installed, 'package.json'));
    await cp(join(root, 'generated/schema.d.ts'), join(installed, 'generated/schema.d.ts'));
    await symlink(join(root, 'node_modules'), join(installed, 'node_modules'), 'dir'); // its dependencies
    await writeFile(join(project, 'package.json'), '{ "type": "module" }');
    await writeFile(join(project, 'main.ts'), typedConsumer);
    await writeFile(join(project, 'main.mjs'), runtimeConsumer);

    await sh(tsc, ['--noEmit', '--strict', '--skipLibCheck', '--target', 'es2022', '--module', 'nodenext', '--lib', 'es2022,dom', 'main.ts'], { cwd: project });

    const server = await startServer();
    try {
      const { stdout } = await sh(process.execPath, ['main.mjs', server.baseUrl], { cwd: project });
      expect(stdout.trim()).toBe('chat.completion');
    } finally {
      await server.close();
    }
  });
});
