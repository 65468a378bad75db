/**
 * Sends one request and captures everything a report needs about it. Plain `node:http`, not `fetch`, so
 * that headers go out exactly as written (an empty `x-api-key`, no defaults added) and an answer sent
 * before a large body is fully written (413) is still read.
 */
import http from 'node:http';
import https from 'node:https';

export interface OutgoingRequest {
  method: string;
  /** Path below the base URL, e.g. `/v1/models`. */
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** A JSON value, serialised; or raw bytes/text sent as they are (malformed JSON, huge bodies). */
  json?: unknown;
  raw?: string | Buffer;
}

export interface CapturedResponse {
  status: number;
  /** Header names in lower case; repeated headers joined with `, `. */
  headers: Record<string, string>;
  contentType: string | null;
  text: string;
  /** The parsed body when it is JSON, else undefined. */
  json: unknown;
}

export interface Exchange {
  request: { method: string; url: string; headers: Record<string, string>; body: string; bodyBytes: number };
  response?: CapturedResponse;
  /** Set when no answer came back (connection refused, reset, timeout). */
  error?: string;
  durationMs: number;
}

/** How much of a request body the exchange keeps for the report. */
const KEEP_REQUEST_BODY = 4096;

/** Keeps connections open between the requests of a run (a new connection per request costs more than the request). */
export function createAgent(baseUrl: string): http.Agent {
  const options = { keepAlive: true, maxSockets: 4 };
  return baseUrl.startsWith('https:') ? new https.Agent(options) : new http.Agent(options);
}

/** Bodies above this are written in pieces, and no longer once the server has answered (413). */
const PIECE = 256 * 1024;

/**
 * Sends a request to `baseUrl` and captures the exchange; never throws for network errors.
 * @example
 * const ex = await send('http://127.0.0.1:8080', { method: 'GET', path: '/v1/models' });
 * ex.response?.status; // 200
 */
export async function send(baseUrl: string, req: OutgoingRequest, timeoutMs = 30_000, agent?: http.Agent): Promise<Exchange> {
  const first = await attempt(baseUrl, req, timeoutMs, agent);
  // A kept-alive connection the server has just closed fails at once; that is no answer about the request.
  return first.retry ? (await attempt(baseUrl, req, timeoutMs, undefined)).exchange : first.exchange;
}

function attempt(baseUrl: string, req: OutgoingRequest, timeoutMs: number, agent: http.Agent | undefined): Promise<{ exchange: Exchange; retry: boolean }> {
  const url = new URL(baseUrl.replace(/\/$/, '') + req.path);
  for (const [k, v] of Object.entries(req.query ?? {})) url.searchParams.set(k, v);
  const body =
    req.raw !== undefined
      ? Buffer.isBuffer(req.raw) ? req.raw : Buffer.from(req.raw)
      : req.json !== undefined ? Buffer.from(JSON.stringify(req.json)) : undefined;
  const headers: Record<string, string> = { ...(req.headers ?? {}) };
  const hasHeader = (name: string) => Object.keys(headers).some((h) => h.toLowerCase() === name);
  if (body && !hasHeader('content-type')) headers['content-type'] = 'application/json';
  if (body) headers['content-length'] = String(body.length);
  const exchange: Exchange = {
    request: {
      method: req.method.toUpperCase(),
      url: url.toString(),
      headers,
      body: body ? body.subarray(0, KEEP_REQUEST_BODY).toString('utf8') : '',
      bodyBytes: body?.length ?? 0,
    },
    durationMs: 0,
  };
  const started = performance.now();
  const lib = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    let answered = false;
    const finish = (patch: Partial<Exchange>, retry = false) => {
      if (settled) return;
      settled = true;
      Object.assign(exchange, patch, { durationMs: Math.round(performance.now() - started) });
      resolve({ exchange, retry });
    };
    const request = lib.request(url, { method: exchange.request.method, headers, agent: agent ?? false }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', (e) => finish({ error: `response aborted: ${e.message}` }));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const responseHeaders: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) {
          if (v !== undefined) responseHeaders[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
        }
        const contentType = responseHeaders['content-type'] ?? null;
        finish({ response: { status: res.statusCode ?? 0, headers: responseHeaders, contentType, text, json: parseJson(text) } });
        // The body may not have been written in full (an early 413): this connection cannot be reused.
        if (!request.writableFinished) request.destroy();
      });
    });
    request.setTimeout(timeoutMs, () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.on('error', (e: NodeJS.ErrnoException) => {
      if (request.reusedSocket && !answered && e.code === 'ECONNRESET') return finish({}, true);
      // A server may answer (413) and close before a large body is written; the answer is what counts.
      setTimeout(() => finish({ error: e.message }), 50);
    });
    void writeBody(request, body, () => answered || settled);
  });
}

/** Writes the body in pieces, stopping when `stop()` says the exchange is over. */
async function writeBody(request: http.ClientRequest, body: Buffer | undefined, stop: () => boolean): Promise<void> {
  if (!body || body.length <= PIECE) return void request.end(body);
  for (let at = 0; at < body.length; at += PIECE) {
    if (stop() || request.destroyed) return;
    if (!request.write(body.subarray(at, at + PIECE))) {
      await new Promise<void>((resolve) => {
        const done = () => { request.off('drain', done); request.off('close', done); resolve(); };
        request.once('drain', done);
        request.once('close', done);
      });
    }
  }
  if (!request.destroyed) request.end();
}

function parseJson(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
