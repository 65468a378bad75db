/**
 * A gateway in upstream mode for a test: a reference server as the upstream (it speaks every text protocol:
 * OpenAI Chat Completions and Responses under /v1, Anthropic Messages at its root), and a gateway whose
 * catalogue is the built-in listing with every chat model answered by that upstream in one protocol. Both
 * listen on 127.0.0.1, port 0; `close()` closes both. With `recordUpstream`, a recording proxy stands
 * between them, and `upstreamSeen` lists what the upstream received.
 *
 * @example
 *   const pair = await startUpstreamPair('anthropic-messages');
 *   await fetch(`${pair.gateway.baseUrl}/v1/chat/completions`, …);
 *   await pair.close();
 */
import { builtInEntries } from '../../src/server/catalogue/catalogue.ts';
import type { CatalogueEntry, UpstreamEntry } from '../../src/server/catalogue/catalogue-file.ts';
import { startRecordingProxy, type RecordedRequest, type RecordingProxy } from './recording-proxy.ts';
import { startServer, type TestServer, type TestServerOptions } from './server.ts';

export type TextProtocol = 'openai-chat' | 'openai-responses' | 'anthropic-messages';

/** The demo key the gateway uses at its upstream (the upstream's demo keys are on). */
export const UPSTREAM_KEY = 'sk-demo-ultimate';

export interface UpstreamPair {
  upstream: TestServer;
  gateway: TestServer;
  catalogue: CatalogueEntry[];
  /** Every request the upstream received, in order (a test may empty it); only with `recordUpstream`. */
  readonly upstreamSeen: RecordedRequest[];
  close(): Promise<void>;
}

export interface UpstreamPairOptions extends TestServerOptions {
  /** Put a recording proxy between the gateway and the upstream (off by default: a direct connection). */
  recordUpstream?: boolean;
}

/** Where an upstream of this protocol is, as that vendor's SDK takes its base URL. */
export function baseUrlFor(protocol: UpstreamEntry['protocol'], origin: string): string {
  return protocol === 'anthropic-messages' ? origin : `${origin}/v1`;
}

/**
 * The built-in listing with every chat model on `baseUrl` in `protocol` (the upstream's model of the same id).
 */
export function upstreamCatalogue(protocol: TextProtocol, baseUrl: string, extra: Partial<UpstreamEntry> = {}): CatalogueEntry[] {
  return builtInEntries().map((model) =>
    model.endpoints.includes('/v1/chat/completions')
      ? { ...model, upstream: { protocol, base_url: baseUrl, api_key_env: 'UPSTREAM_KEY', model: model.id, ...extra } }
      : model,
  );
}

export async function startUpstreamPair(protocol: TextProtocol, options: UpstreamPairOptions = {}): Promise<UpstreamPair> {
  const { recordUpstream = false, ...gatewayOptions } = options;
  const upstream = await startServer({ store: 'memory' });
  let recorder: RecordingProxy | undefined;
  let gateway: TestServer;
  let catalogue: CatalogueEntry[];
  try {
    if (recordUpstream) recorder = await startRecordingProxy(upstream.baseUrl);
    catalogue = upstreamCatalogue(protocol, baseUrlFor(protocol, recorder?.baseUrl ?? upstream.baseUrl));
    gateway = await startServer({ store: 'memory', catalogue, environment: { UPSTREAM_KEY }, ...gatewayOptions });
  } catch (error) {
    await recorder?.close();
    await upstream.close();
    throw error;
  }
  return {
    upstream,
    gateway,
    catalogue,
    get upstreamSeen() {
      if (!recorder) throw new Error('startUpstreamPair records what the upstream received only with { recordUpstream: true }.');
      return recorder.seen;
    },
    async close() {
      try {
        await gateway.close();
      } finally {
        await recorder?.close();
        await upstream.close();
      }
    },
  };
}
