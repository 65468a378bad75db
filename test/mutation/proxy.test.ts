/**
 * The fault proxy itself: what no fault touches passes byte for byte, a stream still streams (its first event
 * arrives while the server holds the rest back), and each kind of rewrite does what it says.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEvents } from '../../src/client/sse.ts';
import { json, startFaultProxy, type Fault } from './proxy.ts';

let server: Server;
let target: string;
/** The stream's held-back end: the test releases it once the proxy has passed the first event on. */
let release: (() => void) | undefined;
const seen: Array<{ url: string; headers: Record<string, unknown>; body: string }> = [];

const payload = JSON.stringify({ text: 'Grüße 🌊', n: [1, 2.5, null] });

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (req.url === '/stream') return stream(res);
      res.writeHead(200, { 'content-type': 'application/json', 'x-echo': 'yes' });
      res.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  target = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function stream(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write('data: {"i":0}\n\n');
  release = () => {
    res.write('data: {"i":1}\n\n');
    res.end('data: [DONE]\n\n');
  };
}

async function through(fault: Fault | undefined, path: string, init: RequestInit = {}) {
  const proxy = await startFaultProxy({ target, fault });
  try {
    const res = await fetch(`${proxy.baseUrl}${path}`, init);
    return { status: res.status, headers: res.headers, body: await res.text() };
  } finally {
    await proxy.close();
  }
}

describe('the fault proxy', () => {
  it('passes an answer it does not touch byte for byte, headers included', async () => {
    const res = await through(undefined, '/x?q=1', { method: 'POST', body: '{"a":"é"}', headers: { 'content-type': 'application/json', 'x-api-key': 'k' } });
    expect(res).toMatchObject({ status: 200, body: payload });
    expect(res.headers.get('x-echo')).toBe('yes');
    expect(seen.at(-1)).toMatchObject({ url: '/x?q=1', body: '{"a":"é"}', headers: { 'x-api-key': 'k' } });
  });

  it('passes a stream on as a stream: the first event arrives before the server sends the rest', async () => {
    for (const fault of [undefined, { stream: () => ({ event: (e: { frame: string }) => [e.frame] }) }]) {
      const proxy = await startFaultProxy({ target, fault });
      try {
        const res = await fetch(`${proxy.baseUrl}/stream`);
        const events = readEvents(res.body!);
        expect((await events.next()).value?.data).toBe('{"i":0}');
        release!();
        const rest: string[] = [];
        for await (const event of events) rest.push(event.data);
        expect(rest).toEqual(['{"i":1}', '[DONE]']);
      } finally {
        await proxy.close();
      }
    }
  });

  it('rewrites a request before it is forwarded', async () => {
    await through({ request: ({ request }) => void (request.headers['x-api-key'] = 'changed') }, '/y', { headers: { 'x-api-key': 'k' } });
    expect(seen.at(-1)!.headers['x-api-key']).toBe('changed');
  });

  it('answers in the server\'s place, which then sees nothing', async () => {
    const before = seen.length;
    const res = await through({ request: () => json(401, { error: 'no' }) }, '/z');
    expect(res).toMatchObject({ status: 401, body: '{"error":"no"}' });
    expect(seen.length).toBe(before);
  });

  it('rewrites an answer', async () => {
    const res = await through({ response: (response) => void ((response.status = 201), (response.body = Buffer.from('{}'))) }, '/a');
    expect(res).toMatchObject({ status: 201, body: '{}' });
  });

  it('rewrites a stream event by event', async () => {
    const proxy = await startFaultProxy({
      target,
      fault: { stream: () => ({ event: (e) => (e.data === '[DONE]' ? [] : [`data: ${e.data}!`]), end: () => ['data: tail'] }) },
    });
    try {
      const res = await fetch(`${proxy.baseUrl}/stream`);
      const events = readEvents(res.body!);
      const first = await events.next();
      release!();
      const all = [first.value!.data];
      for await (const event of events) all.push(event.data);
      expect(all).toEqual(['{"i":0}!', '{"i":1}!', 'tail']);
    } finally {
      await proxy.close();
    }
  });
});
