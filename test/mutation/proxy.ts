/**
 * A fault-injecting HTTP proxy, in the manner of toxiproxy: it stands between a client (the conformance
 * suite) and any implementation of the contract, forwards every request, and lets one `Fault` rewrite what
 * passes: the request before it is forwarded (or an answer in its place), the answer before it is returned,
 * or a server-sent event stream event by event. The implementation behind it is the real, unmodified one.
 *
 * What a fault does not touch passes through unchanged: bodies byte for byte, streams as streams.
 */
import { Agent, createServer, request as forward, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the proxy holds it: the whole body is read before the fault sees it. */
export interface ProxiedRequest {
  method: string;
  /** Path and query, e.g. `/v1/generation/image?model=image-gen`. */
  url: string;
  headers: Record<string, string>;
  body: Buffer;
}

/** An answer as the proxy holds it (a fault's own, or the implementation's, read whole). */
export interface ProxiedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** One event of a stream: its frame without the blank line after it, and its `data` when it has one line of it. */
export interface StreamEvent {
  frame: string;
  data: string | undefined;
}

/** What a fault sees of the exchange it changes. */
export interface Exchange {
  request: ProxiedRequest;
  /** The target's base URL, for a fault that must read something (the model listing) first. */
  target: string;
}

export interface Fault {
  /** Changes the request before it is forwarded, or returns an answer to send instead. */
  request?(exchange: Exchange): ProxiedResponse | void | Promise<ProxiedResponse | void>;
  /** Changes an answer that is not an event stream before it reaches the client. */
  response?(response: ProxiedResponse, exchange: Exchange): void;
  /** Rewrites one event stream: `event` returns the frames to send for each event (none to drop it). */
  stream?(exchange: Exchange): { event(event: StreamEvent): string[]; end?(): string[] };
}

export interface FaultProxy {
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * @example
 * const proxy = await startFaultProxy({ target: server.baseUrl, fault: faults['stream-no-done'] });
 * await runConformance({ baseUrl: proxy.baseUrl, … });
 * await proxy.close();
 */
export async function startFaultProxy(options: { target: string; fault?: Fault }): Promise<FaultProxy> {
  const fault = options.fault ?? {};
  const target = new URL(options.target);
  const agent = new Agent({ keepAlive: true });
  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      if (!res.headersSent) send(res, json(502, { error: `fault proxy: ${error.message}` }));
      else res.destroy(error);
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const request: ProxiedRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: flat(req.headers), body: await readAll(req) };
    const exchange: Exchange = { request, target: target.origin };
    const instead = await fault.request?.(exchange);
    if (instead) return send(res, instead);
    const headers: Record<string, string> = { ...request.headers, host: target.host };
    if (request.body.length > 0 || 'content-length' in headers) headers['content-length'] = String(request.body.length);
    delete headers['transfer-encoding'];
    const upstream = await new Promise<IncomingMessage>((resolve, reject) => {
      const out = forward({ host: target.hostname, port: target.port, method: request.method, path: request.url, headers, agent }, resolve);
      out.on('error', reject);
      out.end(request.body);
    });
    const status = upstream.statusCode ?? 502;
    const responseHeaders = flat(upstream.headers);
    const streaming = (responseHeaders['content-type'] ?? '').startsWith('text/event-stream');
    if (streaming && fault.stream) return relayStream(upstream, res, status, responseHeaders, fault.stream(exchange));
    if (!streaming && fault.response) {
      const response: ProxiedResponse = { status, headers: responseHeaders, body: await readAll(upstream) };
      fault.response(response, exchange);
      return send(res, response);
    }
    res.writeHead(status, upstream.headers);
    upstream.pipe(res);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Passes a stream on event by event, each through the fault, as soon as its blank line arrives. */
function relayStream(
  upstream: IncomingMessage,
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  rewrite: { event(event: StreamEvent): string[]; end?(): string[] },
): void {
  delete headers['content-length'];
  res.writeHead(status, headers);
  let pending = '';
  const emit = (frames: string[]) => {
    for (const frame of frames) res.write(`${frame}\n\n`);
  };
  upstream.setEncoding('utf8');
  upstream.on('data', (text: string) => {
    pending += text;
    let end: number;
    while ((end = pending.indexOf('\n\n')) >= 0) {
      const frame = pending.slice(0, end);
      pending = pending.slice(end + 2);
      const data = /^data: ?(.*)$/m.exec(frame)?.[1];
      emit(rewrite.event({ frame, data }));
    }
  });
  upstream.on('end', () => {
    if (pending) res.write(pending);
    emit(rewrite.end?.() ?? []);
    res.end();
  });
  upstream.on('error', (error) => res.destroy(error));
}

function send(res: ServerResponse, response: ProxiedResponse): void {
  const headers: Record<string, string> = { ...response.headers, 'content-length': String(response.body.length) };
  delete headers['transfer-encoding'];
  res.writeHead(response.status, headers);
  res.end(response.body);
}

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

/** Headers as single strings (the proxy's faults read and write them by lower-case name). */
function flat(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

/** A JSON answer, for a fault that answers in the implementation's place. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): ProxiedResponse {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body: Buffer.from(JSON.stringify(body)) };
}
