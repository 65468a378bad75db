/**
 * The upstreams of a catalogue, connected: one pool of connections per upstream (upstreams that share a base
 * URL, key and time limits share it), with the headers each protocol wants (OpenAI's `Authorization: Bearer`,
 * Anthropic's `x-api-key` and `anthropic-version`). Keys are read from the environment here and kept only in
 * the pools' headers, and beside them to be taken out of what an upstream says.
 */
import type { UpstreamEntry } from '../catalogue/catalogue-file.ts';
import { defaultTimeouts, UpstreamClient, type UpstreamTimeouts } from './http.ts';

/** The Messages API version the gateway speaks to an Anthropic upstream. */
const ANTHROPIC_VERSION = '2023-06-01';

/** An upstream connected: its pool, and the operator's key for it, which no message may show. */
export interface UpstreamConnection {
  client: UpstreamClient;
  key: string | undefined;
}

export interface Upstreams {
  /** The connection of one upstream of the catalogue. */
  connect(upstream: UpstreamEntry): UpstreamConnection;
  /** Closes every pool. */
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
 *   const upstreams = connectUpstreams(process.env);
 *   const { client, key } = upstreams.connect(entry.upstream);
 */
export function connectUpstreams(env: Record<string, string | undefined>): Upstreams {
  const clients = new Map<string, UpstreamClient>();
  return {
    connect(upstream) {
      const key = upstream.api_key_env === undefined ? undefined : env[upstream.api_key_env];
      const timeouts = timeoutsOf(upstream);
      const poolKey = JSON.stringify([upstream.base_url, upstream.protocol === 'anthropic-messages', upstream.api_key_env, timeouts]);
      let client = clients.get(poolKey);
      if (!client) {
        client = new UpstreamClient({ baseUrl: upstream.base_url, headers: headersFor(upstream.protocol, key), timeouts });
        clients.set(poolKey, client);
      }
      return { client, key };
    },
    close: async () => {
      await Promise.all([...clients.values()].map((client) => client.close()));
    },
  };
}
