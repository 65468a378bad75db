/**
 * A proxy that records every request it passes on, and the answer to it, and changes nothing (the fault
 * proxy with faults that only look): put between a client and a server, it shows what the client sent;
 * between a gateway and its upstream, what the upstream received and answered. Streams pass through as
 * streams, event by event.
 *
 * @example
 *   const recorder = await startRecordingProxy(server.baseUrl);
 *   await fetch(`${recorder.baseUrl}/v1/models`);
 *   recorder.seen; // [{ request: 'GET /v1/models', body: {} }]
 *   await recorder.close();
 */
import { startFaultProxy, type ProxiedRequest } from '../mutation/proxy.ts';

export interface RecordedRequest {
  /** `POST /v1/messages?beta=true` */
  request: string;
  /** The JSON body, or `{}` (none, or not JSON: a multipart form). */
  body: Record<string, unknown>;
  /** The answer's body as text: a JSON answer once it is whole, a stream's events as they pass. */
  answer?: string;
}

export interface RecordingProxy {
  /** The proxy's address: what the client is pointed at. */
  readonly baseUrl: string;
  /** Every request that passed, in order; a test may empty it. */
  readonly seen: RecordedRequest[];
  close(): Promise<void>;
}

/** `seen` is the list the requests are added to (a new one by default). */
export async function startRecordingProxy(target: string, seen: RecordedRequest[] = []): Promise<RecordingProxy> {
  const records = new WeakMap<ProxiedRequest, RecordedRequest>();
  const proxy = await startFaultProxy({
    target,
    fault: {
      request: ({ request }) => {
        const record: RecordedRequest = { request: `${request.method} ${request.url}`, body: jsonOf(request.body) };
        records.set(request, record);
        seen.push(record);
      },
      response: (response, { request }) => {
        const record = records.get(request);
        if (record) record.answer = response.body.toString('utf8');
      },
      stream: ({ request }) => {
        const record = records.get(request);
        if (record) record.answer = '';
        return {
          event: (event) => {
            if (record) record.answer += `${event.frame}\n\n`;
            return [event.frame];
          },
        };
      },
    },
  });
  return { baseUrl: proxy.baseUrl, seen, close: () => proxy.close() };
}

function jsonOf(body: Buffer): Record<string, unknown> {
  if (body.length === 0) return {};
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
