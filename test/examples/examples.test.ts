// Every script in examples/ runs against a fresh reference server, so that none of them rots.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, type TestContext } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import { pngSize } from '../client/png.ts';
import { root, run, runScript } from './run.ts';

/**
 * A fresh server for one test (the examples spend images of the default key's daily quota), closed when
 * the test ends, and GATEWAY_URL for it. GATEWAY_KEY is left to each example's default.
 */
async function gateway({ onTestFinished }: TestContext): Promise<Record<string, string>> {
  const server: TestServer = await startServer();
  onTestFinished(() => server.close());
  return { GATEWAY_URL: server.baseUrl };
}

const ok = (result: { code: number; stderr: string }) => expect(result.code, result.stderr).toBe(0);

describe.concurrent('examples/', () => {
  it('typed-client.ts: models, chat, prompt, and a 403 read as data', async (context) => {
    const result = await runScript(join(root, 'examples/typed-client.ts'), [], { env: await gateway(context) });
    ok(result);
    expect(result.stdout).toMatch(/^models: .*gpt-4o-mini \(starter\).*image-gen/m);
    expect(result.stdout).toMatch(/^chat: \S+/m);
    expect(result.stdout).toMatch(/^tokens: \d+, billed: \d+$/m);
    expect(result.stdout).toMatch(/^prompt: \S+/m);
    expect(result.stdout).toMatch(/^error 403: .*'ultimate' tier/m);
  });

  it('openai-sdk.ts: chat and a tool round trip with the official SDK', async (context) => {
    const result = await runScript(join(root, 'examples/openai-sdk.ts'), [], { env: await gateway(context) });
    ok(result);
    expect(result.stdout).toMatch(/^chat: \S+/m);
    expect(result.stdout).toMatch(/^tool call: get_weather\(\{"city":".+"\}\)$/m);
    expect(result.stdout).toMatch(/^answer: .*21/m);
  });

  it('streaming.ts: prints the stream, stops one early, collects one', async (context) => {
    const result = await runScript(join(root, 'examples/streaming.ts'), [], { env: await gateway(context) });
    ok(result);
    expect(result.stdout).toMatch(/^stream: \S+/m);
    expect(result.stdout).toMatch(/^stopped after 3 pieces$/m);
    expect(result.stdout).toMatch(/^collected: chat\.completion, finish_reason stop, \d+ tokens$/m);
  });

  it('images.ts: writes the generated picture, the mask and the inpainted edit as PNG files', async (context) => {
    const folder = await mkdtemp(join(tmpdir(), 'gateway-example-images-'));
    try {
      const result = await runScript(join(root, 'examples/images.ts'), [folder], { env: await gateway(context) });
      ok(result);
      expect(result.stdout).toMatch(/^images left today: 24$/m);
      for (const name of ['generated.png', 'mask.png', 'edited.png']) {
        expect(pngSize(await readFile(join(folder, name))), name).toEqual({ width: 512, height: 512 });
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('curl.sh: every operation with curl', async (context) => {
    const result = await run('sh', [join(root, 'examples/curl.sh')], { env: await gateway(context) });
    ok(result);
    expect(result.stdout).toContain('"id":"image-gen"');
    expect(result.stdout).toContain('"object":"chat.completion"');
    expect(result.stdout).toMatch(/"object":"chat\.completion\.chunk"[\s\S]*data: \[DONE\]/);
    expect(result.stdout).toContain('"object":"text_completion"');
    expect(result.stdout.match(/"b64_json":"iVBORw0KGgo/g)).toHaveLength(2);
  });

  it("curl.sh: stops with a failure when the key's images for the day are used up", async (context) => {
    const env = await gateway(context);
    // The starter key's 3 images of the day, spent before the script runs.
    const spent = await fetch(`${env.GATEWAY_URL}/v1/generation/image?model=image-gen`, {
      method: 'POST',
      headers: { 'x-api-key': 'sk-demo-starter', 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'x', size: '256x256', n: 3 }),
    });
    expect(spent.status).toBe(200);
    const result = await run('sh', [join(root, 'examples/curl.sh')], { env: { ...env, GATEWAY_KEY: 'sk-demo-starter' } });
    expect(result.code).not.toBe(0);
    expect(result.stdout + result.stderr).toMatch(/Daily quota exceeded\./);
    expect(result.stdout).not.toContain('# POST /v1/generation/image/edit');
  });
});
