/**
 * The forwarding half of `gateway-conformance proxy`: every request goes to the upstream as it came (path,
 * query, method, headers but the hop-by-hop ones, body), every answer back as it came, byte for byte and as it
 * arrives — a stream event is written to the client the moment it is read, never held for the next. A copy of
 * each side is kept, up to a cap, and handed on once the exchange is over, off the path of the bytes.
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

/** One exchange as it passed, for the judge. */
export interface Passed {
  method: string;
  /** Path and query as the client sent them (without the upstream's own path prefix). */
  url: string;
  requestHeaders: Record<string, string>;
  requestBody: Buffer;
  /** More request bytes came than were kept. */
  requestCut: boolean;
  requestBytes: number;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: Buffer;
  responseCut: boolean;
  /** Set when no whole answer came back (upstream unreachable, connection cut). */
  error?: string;
  durationMs: number;
}

export interface ForwardOptions {
  /** The implementation's root, e.g. `http://127.0.0.1:8080` (an upstream path prefix is kept). */
  upstream: string;
  host?: string;
  port?: number;
  /** Headers added to every forwarded request (a gateway's routing headers). */
  headers?: Record<string, string>;
  /** Bytes kept of each body for the judge; the rest passes, unkept. */
  captureBytes?: number;
  /** Called once an exchange is over (its answer ended, or failed). */
  onExchange(passed: Passed): void;
}

export interface Forwarder {
  baseUrl: string;
  close(graceMs?: number): Promise<void>;
}

/** Headers that belong to one connection, not to the message (RFC 9110, 7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

function endToEnd(headers: http.IncomingHttpHeaders): Record<string, string | string[]> {
  const named = new Set(String(headers.connection ?? '').toLowerCase().split(',').map((h) => h.trim()));
  return Object.fromEntries(Object.entries(headers).filter(([k, v]) => v !== undefined && !HOP_BY_HOP.has(k) && !named.has(k))) as Record<string, string | string[]>;
}

function flat(headers: http.IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).flatMap(([k, v]) => (v === undefined ? [] : [[k, Array.isArray(v) ? v.join(', ') : v]])));
}

/** Keeps the first `cap` bytes of what passes, and counts the rest. */
class Capture {
  readonly chunks: Buffer[] = [];
  kept = 0;
  total = 0;
  constructor(private readonly cap: number) {}
  add(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.kept >= this.cap) return;
    const piece = chunk.length > this.cap - this.kept ? chunk.subarray(0, this.cap - this.kept) : chunk;
    this.chunks.push(piece);
    this.kept += piece.length;
  }
  get cut(): boolean {
    return this.total > this.kept;
  }
  body(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

/**
 * @example
 * const proxy = await startForwarder({ upstream: 'http://127.0.0.1:8080', onExchange: (p) => judge(p) });
 */
export async function startForwarder(options: ForwardOptions): Promise<Forwarder> {
  const upstream = new URL(options.upstream);
  const prefix = upstream.pathname.replace(/\/$/, '');
  const lib = upstream.protocol === 'https:' ? https : http;
  const agent = new lib.Agent({ keepAlive: true, maxSockets: 256 });
  const cap = options.captureBytes ?? 8 * 1024 * 1024;
  const extra = Object.fromEntries(Object.entries(options.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));

  const server = http.createServer({ noDelay: true, keepAlive: true }, (req, res) => {
    const started = performance.now();
    const sent = new Capture(cap);
    const got = new Capture(cap);
    let status = 0;
    let responseHeaders: Record<string, string> = {};
    let finished = false;
    const finish = (error?: string) => {
      if (finished) return;
      finished = true;
      options.onExchange({
        method: req.method ?? 'GET', url: req.url ?? '/', requestHeaders: flat(req.headers), requestBody: sent.body(), requestCut: sent.cut, requestBytes: sent.total,
        status, responseHeaders, responseBody: got.body(), responseCut: got.cut, ...(error ? { error } : {}), durationMs: Math.round(performance.now() - started),
      });
    };
    const headers = { ...endToEnd(req.headers), ...extra, host: upstream.host };
    const out = lib.request({ protocol: upstream.protocol, hostname: upstream.hostname, port: upstream.port, method: req.method, path: `${prefix}${req.url}`, headers, agent }, (answer) => {
      status = answer.statusCode ?? 0;
      responseHeaders = flat(answer.headers);
      res.writeHead(status, endToEnd(answer.headers));
      // The head goes out now: a client waiting for a stream sees it before the first event.
      res.flushHeaders();
      answer.on('data', (chunk: Buffer) => {
        got.add(chunk);
        res.write(chunk);
      });
      answer.on('end', () => {
        res.end();
        finish();
      });
      answer.on('error', (e) => {
        res.destroy(e);
        finish(`the answer was cut: ${e.message}`);
      });
    });
    out.on('error', (e) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `The upstream ${upstream.origin} could not be reached: ${e.message}` }));
      else res.destroy(e);
      finish(`no answer from the upstream: ${e.message}`);
    });
    req.on('data', (chunk: Buffer) => sent.add(chunk));
    // A client that goes away tears the upstream request down with it.
    res.on('close', () => {
      if (!res.writableFinished) {
        out.destroy();
        finish('the client went away before the answer ended');
      }
    });
    req.pipe(out);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    baseUrl: `http://${host}:${address.port}`,
    /** Stops taking connections; exchanges under way get `graceMs` to end, then are cut. */
    async close(graceMs = 2000) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const cut = setTimeout(() => server.closeAllConnections(), graceMs);
      await closed;
      clearTimeout(cut);
      agent.destroy();
    },
  };
}
