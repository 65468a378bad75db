// The x-codeSamples of the contract (what the rendered docs show) run against the reference server: each
// curl sample's answer is checked against the contract, each JavaScript (typed client) and Node.js (openai)
// sample must finish without error.
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { describe, expect, it, type TestContext } from 'vitest';
import { contract } from '../../src/contract/index.ts';
import { pngSize } from '../client/png.ts';
import { startServer } from '../helpers/server.ts';
import { root, run, runScript } from './run.ts';

interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

/** The address the samples are written for (the spec's first server); the test swaps in its own. */
const documentedUrl = 'http://127.0.0.1:8080';

const samples = contract.operations.flatMap((op) => {
  const operation = contract.deref<{ 'x-codeSamples'?: CodeSample[] }>({ $ref: `#${op.pointer}` });
  return (operation['x-codeSamples'] ?? []).map((sample) => ({ operationId: op.operationId, ...sample }));
});

/** A scratch folder holding the sample, with the pictures the image-edit samples read (sea.png, mask.png). */
async function workspace({ onTestFinished }: TestContext): Promise<{ dir: string; baseUrl: string }> {
  const [server, dir] = await Promise.all([startServer(), mkdtemp(join(tmpdir(), 'gateway-code-sample-'))]);
  onTestFinished(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });
  const sea = sharp({ create: { width: 64, height: 64, channels: 3, background: '#2a6f97' } }).png().toBuffer();
  const mask = sharp({ create: { width: 64, height: 64, channels: 3, background: 'black' } })
    .composite([{ input: { create: { width: 32, height: 32, channels: 3, background: 'white' } }, left: 32, top: 32 }])
    .png()
    .toBuffer();
  await Promise.all([writeFile(join(dir, 'sea.png'), await sea), writeFile(join(dir, 'mask.png'), await mask)]);
  // The JavaScript samples import 'openai' as a reader's project would; let them find this project's packages.
  await symlink(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return { dir, baseUrl: server.baseUrl };
}

/** Status line, headers and content type from curl's `-D` dump. */
function parseHeaderDump(dump: string) {
  const blocks = dump.trim().split(/\r?\n\r?\n/);
  const [statusLine = '', ...lines] = blocks.at(-1)!.split(/\r?\n/);
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, contentType: headers['content-type'] ?? null };
}

describe('x-codeSamples in the contract', () => {
  it('every operation of the specification has a curl and a JavaScript sample', () => {
    for (const operationId of ['listModels', 'createChatCompletion', 'createTextCompletion', 'createImage', 'editImage']) {
      const langs = samples.filter((s) => s.operationId === operationId).map((s) => s.lang);
      expect(langs, operationId).toEqual(expect.arrayContaining(['curl', 'JavaScript']));
    }
  });

  it.concurrent.for(samples.filter((s) => s.lang === 'curl'))(
    '$operationId: $label answers 2xx within the contract',
    async (sample, context) => {
      const { dir, baseUrl } = await workspace(context);
      // Same command, pointed at the test server, with curl also writing the status line and headers.
      const script = sample.source.replaceAll(documentedUrl, baseUrl).replace(/\bcurl /g, 'curl -D headers.txt ');
      await writeFile(join(dir, 'sample.sh'), script);
      const result = await run('sh', ['sample.sh'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      const answer = parseHeaderDump(await readFile(join(dir, 'headers.txt'), 'utf8'));
      expect(answer.status, result.stdout).toBeGreaterThanOrEqual(200);
      expect(answer.status, result.stdout).toBeLessThan(300);
      const body = answer.contentType?.includes('json') ? JSON.parse(result.stdout) : result.stdout;
      const verdict = contract.validateResponse(sample.operationId, { ...answer, body });
      expect(verdict.ok, verdict.ok ? '' : verdict.message).toBe(true);
      if (answer.contentType?.startsWith('text/event-stream')) expect(result.stdout.trim().endsWith('data: [DONE]')).toBe(true);
    },
  );

  it.concurrent.for(samples.filter((s) => s.lang === 'JavaScript' || s.lang === 'Node.js'))(
    '$operationId: $label runs to the end',
    async (sample, context) => {
      const { dir, baseUrl } = await workspace(context);
      // The package import becomes this repository's source; the documented address becomes the test server.
      const clientUrl = pathToFileURL(join(root, 'src/client/index.ts')).href;
      const script = sample.source.replaceAll(documentedUrl, baseUrl).replaceAll("'ai-gateway-contract/client'", `'${clientUrl}'`);
      await writeFile(join(dir, 'sample.mjs'), script);
      const result = await runScript(join(dir, 'sample.mjs'), [], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      if (sample.operationId === 'createImage') expect(pngSize(await readFile(join(dir, 'lighthouse.png')))).toEqual({ width: 512, height: 512 });
      if (sample.operationId === 'editImage') expect(pngSize(await readFile(join(dir, 'sea-with-boat.png')))).toEqual({ width: 512, height: 512 });
      if (sample.operationId !== 'createImage' && sample.operationId !== 'editImage') expect(result.stdout).toMatch(/\w/);
    },
  );
});
