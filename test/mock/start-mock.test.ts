/**
 * `startMock`, the module the tests, the conformance suite and the benchmark share: free ports, a clean
 * stop, reloads after `npm run generate`, and a page on another origin calling it from a real browser.
 */
import { readFileSync, rmSync, writeFileSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type Mock } from '../../scripts/lib/prism.ts';
import { contract } from '../../src/contract/index.ts';
import { launchBrowser, openLocalPage } from '../helpers/browser.ts';

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function started(options?: Parameters<typeof startMock>[0]): Promise<Mock> {
  const mock = await startMock(options);
  cleanups.push(() => mock.close());
  return mock;
}

function accepts(baseUrl: string): Promise<boolean> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

describe('startMock', () => {
  let shared: Mock;
  beforeAll(async () => {
    shared = await startMock();
  });
  afterAll(async () => {
    await shared?.close();
  });

  it('starts mocks side by side on free ports; close() stops one and leaves the other', async () => {
    const other = await started();
    expect(other.baseUrl).not.toBe(shared.baseUrl);
    expect(other.baseUrl).toBe(`http://127.0.0.1:${other.port}`);
    for (const mock of [shared, other]) expect((await fetch(`${mock.baseUrl}/v1/models`)).status).toBe(200);
    expect(() => process.kill(other.pid, 0)).not.toThrow();
    await expect(other.close()).resolves.toEqual({ code: null, signal: 'SIGTERM' });
    expect(() => process.kill(other.pid, 0)).toThrow();
    expect(await accepts(other.baseUrl)).toBe(false);
    expect(await accepts(shared.baseUrl)).toBe(true);
  });

  it('reports a port already taken at once, without starting Prism', async () => {
    await expect(startMock({ port: shared.port })).rejects.toThrow(`Port ${shared.port} on 127.0.0.1 is already in use`);
  });

  it('with watch, answers from the contract as it is after a regeneration', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gateway-mock-test-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const document = join(dir, 'openapi.json');
    const spec = JSON.parse(readFileSync(contract.url, 'utf8'));
    writeFileSync(document, JSON.stringify(spec));
    const mock = await started({ document, watch: true });

    const catalogue = spec.components.examples.ListModelsResponseExample.value;
    spec.components.examples.ListModelsResponseExample.value = { models: catalogue.models.slice(0, 1) };
    writeFileSync(document, JSON.stringify(spec));
    // Prism waits for the file to settle, then reloads: poll until it answers from the new contract.
    const deadline = Date.now() + 20_000;
    let models: unknown[] = catalogue.models;
    while (models.length !== 1 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const res = await fetch(`${mock.baseUrl}/v1/models`).catch(() => undefined);
      if (res?.ok) models = ((await res.json()) as { models: unknown[] }).models;
    }
    expect(models).toEqual(catalogue.models.slice(0, 1));
  });

  it('answers a page on another origin in a real browser, Prefer, Retry-After and the stream included', async () => {
    const mock = shared;
    // The app's origin: another port, so every call to the mock is cross-origin and preflighted.
    const app: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title>'));
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => app.close(resolve)));
    const address = app.address();
    const appUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;

    const browser = await launchBrowser();
    cleanups.push(() => browser.close());
    const { page, watch } = await openLocalPage(browser);
    await page.goto(appUrl);

    const result = await page.evaluate(async (base) => {
      const headers = { 'x-api-key': 'sk-mock', 'content-type': 'application/json' };
      const quota = await fetch(`${base}/v1/generation/image?model=image-gen`, {
        method: 'POST',
        headers: { ...headers, prefer: 'code=429' },
        body: JSON.stringify({ prompt: 'A lighthouse' }),
      });
      const stream = await fetch(`${base}/v1/chat/completions`, {
        method: 'POST',
        headers: { ...headers, accept: 'text/event-stream' },
        body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'Hi' }] }),
      });
      return {
        quota: { status: quota.status, body: await quota.json(), retryAfter: quota.headers.get('retry-after') },
        stream: { status: stream.status, type: stream.headers.get('content-type'), text: await stream.text() },
      };
    }, mock.baseUrl);

    expect(result.quota).toMatchObject({ status: 429, body: { error: 'Daily quota exceeded.' } });
    expect(Number(result.quota.retryAfter)).toBeGreaterThan(0);
    expect(result.stream.status).toBe(200);
    expect(result.stream.type).toMatch(/^text\/event-stream/);
    expect(result.stream.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    // Chromium logs the 429 itself as a console error; a CORS refusal would be logged, and fetch would throw.
    expect(watch.consoleErrors.filter((message) => /CORS|Access-Control/i.test(message))).toEqual([]);
    expect(watch.offsite).toEqual([]);
  });
});
