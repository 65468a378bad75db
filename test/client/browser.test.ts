// The client runs in a browser: bundled for the browser platform (no Node built-in, small), then driven in
// headless Chromium against the reference server over CORS: a typed call, a stream stopped early, an image Blob.
import { createServer, type Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.ts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import { logSink, STREAM_ABANDONED } from '../helpers/log.ts';

/** The slow server's log: it reports each stream a client left early. */
const slowLog = logSink();
import { bundleClient, type ClientBundle } from './bundle.ts';

declare global {
  /** What the page's script (the iife bundle) defines. */
  interface Window {
    gateway: typeof import('../../src/client/index.ts');
  }
}

/** Budget for the minified bundle, openapi-fetch and eventsource-parser included (measured: about 14 kB). */
const BUDGET_BYTES = 16 * 1024;

let bundle: ClientBundle;
beforeAll(async () => {
  bundle = await bundleClient();
});

describe('the client bundle', () => {
  it('builds for the browser with no Node-only API and stays under budget', () => {
    expect(bundle.code).not.toMatch(/\bBuffer\b/);
    expect(bundle.code).not.toMatch(/from\s*["']node:/);
    expect(bundle.bytes).toBeLessThan(BUDGET_BYTES);
    console.info(`client bundle: ${bundle.bytes} B minified, ${bundle.gzipBytes} B gzipped`);
  });
});

describe('the client in Chromium', () => {
  let server: TestServer;
  let slow: TestServer;
  let browser: Browser;
  let page: Page;
  let frontend: Server;

  beforeAll(async () => {
    [server, slow, browser] = await Promise.all([
      startServer(),
      startServer({ tokenDelayMs: 20, logger: slowLog.logger }),
      launchBrowser(),
    ]);
    // A page of another origin than the gateway (another port), as a frontend would be; the client is its only script.
    const script = (await bundleClient('iife')).code;
    frontend = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><title>frontend</title><script>${script}</script>`);
    });
    await new Promise<void>((resolve) => frontend.listen(0, '127.0.0.1', resolve));
    const address = frontend.address();
    if (!address || typeof address === 'string') throw new Error('frontend has no port');
    page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${address.port}/`);
    await page.waitForFunction(() => 'gateway' in window);
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (frontend ? frontend.close(resolve) : resolve(undefined)));
    await Promise.all([server?.close(), slow?.close()]);
  });

  it('answers a typed call across origins', async () => {
    const content = await page.evaluate(async (baseUrl) => {
      const { createGatewayClient } = window.gateway;
      const client = createGatewayClient({ baseUrl, apiKey: 'sk-demo-starter' });
      const { data, error } = await client.POST('/v1/chat/completions', { body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello!' }] } });
      return error ? `error: ${error.error}` : data.choices[0]?.message.content;
    }, server.baseUrl);
    expect(content).toMatch(/\w/);
    expect(content).not.toMatch(/^error/);
  });

  it('collects a stream, and cancels one when the loop stops early', async () => {
    const before = slowLog.count(STREAM_ABANDONED);
    const result = await page.evaluate(
      async ({ baseUrl, slowUrl }) => {
        const { createGatewayClient, streamChatCompletion, collectChatCompletion } = window.gateway;
        const request = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Tell me a story.' }], stream_options: { include_usage: true } };
        const collected = await collectChatCompletion(streamChatCompletion(createGatewayClient({ baseUrl, apiKey: 'sk-demo-starter' }), request));
        let pieces = 0;
        for await (const chunk of streamChatCompletion({ baseUrl: slowUrl, apiKey: 'sk-demo-starter' }, request)) {
          if (chunk.choices[0]?.delta.content && ++pieces === 2) break;
        }
        return { object: collected.object, text: collected.choices[0]?.message.content ?? '', tokens: collected.usage?.total_tokens ?? 0, pieces };
      },
      { baseUrl: server.baseUrl, slowUrl: slow.baseUrl },
    );
    expect(result).toMatchObject({ object: 'chat.completion', pieces: 2 });
    expect(result.text.length).toBeGreaterThan(0);
    expect(result.tokens).toBeGreaterThan(0);
    await vi.waitFor(() => expect(slowLog.count(STREAM_ABANDONED)).toBe(before + 1));
  });

  it('turns b64_json into a Blob the browser decodes as a PNG of the requested size', async () => {
    const size = await page.evaluate(async (baseUrl) => {
      const { createGatewayClient, imageBlob } = window.gateway;
      const client = createGatewayClient({ baseUrl, apiKey: 'sk-demo-starter' });
      const { data, error } = await client.POST('/v1/generation/image', { params: { query: { model: 'image-gen' } }, body: { prompt: 'A lighthouse', size: '256x256' } });
      if (error) return error.error;
      const bitmap = await createImageBitmap(imageBlob(data.data[0]!.b64_json));
      return `${bitmap.width}x${bitmap.height}`;
    }, server.baseUrl);
    expect(size).toBe('256x256');
  });
});
