/**
 * The upstreams of a catalogue, connected: one pool of connections per upstream (models that share a base
 * URL, key and time limits share it), with the headers each protocol wants (OpenAI's `Authorization: Bearer`,
 * Anthropic's `x-api-key` and `anthropic-version`), and each text model's service. Keys are read from the
 * environment here and kept only in the pools' headers.
 */
import type { CatalogueEntry, UpstreamEntry } from '../catalogue/catalogue-file.ts';
import type { TextEngine, TextService } from '../context.ts';
import { defaultTimeouts, UpstreamClient, type UpstreamTimeouts } from './http.ts';
import { upstreamTextService } from './text-service.ts';

/** The Messages API version the gateway speaks to an Anthropic upstream. */
const ANTHROPIC_VERSION = '2023-06-01';

export interface Upstreams {
  /** The text service of each model whose answers come from an upstream, by the model's id. */
  text: ReadonlyMap<string, TextService>;
  /** The client and upstream model of each image model that has an upstream. */
  images: ReadonlyMap<string, { client: UpstreamClient; model: string; key: string | undefined }>;
  close(): Promise<void>;
}

/** The headers that carry the key, in the protocol's way. */
function headersFor(protocol: UpstreamEntry['protocol'], key: string | undefined): Record<string, string> {
  if (protocol === 'anthropic-messages') return { 'anthropic-version': ANTHROPIC_VERSION, ...(key && { 'x-api-key': key }) };
  return key ? { authorization: `Bearer ${key}` } : {};
}

function timeoutsOf(entry: UpstreamEntry): UpstreamTimeouts {
  const t = entry.timeouts ?? {};
  return { connectMs: t.connect_ms ?? defaultTimeouts.connectMs, firstByteMs: t.first_byte_ms ?? defaultTimeouts.firstByteMs, idleMs: t.idle_ms ?? defaultTimeouts.idleMs };
}

/**
 * @example
 *   const upstreams = connectUpstreams(readCatalogueFile(path, process.env), process.env, engines.text);
 */
export function connectUpstreams(entries: readonly CatalogueEntry[], env: Record<string, string | undefined>, engine: TextEngine): Upstreams {
  const clients = new Map<string, UpstreamClient>();
  const text = new Map<string, TextService>();
  const images = new Map<string, { client: UpstreamClient; model: string; key: string | undefined }>();
  for (const entry of entries) {
    const upstream = entry.upstream;
    if (!upstream) continue;
    const key = upstream.api_key_env === undefined ? undefined : env[upstream.api_key_env];
    const timeouts = timeoutsOf(upstream);
    const poolKey = JSON.stringify([upstream.base_url, upstream.protocol === 'anthropic-messages', upstream.api_key_env, timeouts]);
    let client = clients.get(poolKey);
    if (!client) {
      client = new UpstreamClient({ baseUrl: upstream.base_url, headers: headersFor(upstream.protocol, key), timeouts });
      clients.set(poolKey, client);
    }
    if (upstream.protocol === 'openai-images') images.set(entry.id, { client, model: upstream.model, key });
    else text.set(entry.id, upstreamTextService(entry.id, upstream, client, engine, key));
  }
  return {
    text,
    images,
    close: async () => {
      await Promise.all([...clients.values()].map((client) => client.close()));
    },
  };
}
