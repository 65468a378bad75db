/**
 * A routed model's stand-in upstreams (decision D40): reference servers, each behind a fault proxy
 * (faulty-upstream.ts) that passes requests on while healthy and can be switched to any failure — down, 429
 * with Retry-After, 5xx, a first byte that never comes, a stream cut midway. Each speaks another text protocol
 * to the gateway (`a` OpenAI Chat Completions, `b` Anthropic Messages, `c` OpenAI Responses), so a routed
 * model's upstreams are of different protocols, as an operator's may be. Plus a clock for the gateway's
 * routers that the test moves on itself, so that a cool-down or a Retry-After passes without waiting for it.
 *
 * @example
 *   const stands = await startStandIns();
 *   stands.byName.a.proxy.answer = errorStatus(503, openaiError('Overloaded', 'server_error'));
 *   const gateway = await startServer({ catalogue: routedCatalogue(stands.all, { strategy: 'fallback' }), … });
 */
import { builtInEntries } from '../../src/server/catalogue/catalogue.ts';
import type { CatalogueEntry, RoutingEntry, UpstreamEntry } from '../../src/server/catalogue/catalogue-file.ts';
import type { RoutingClock } from '../../src/server/routing/clock.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { baseUrlFor, UPSTREAM_KEY, type TextProtocol } from '../helpers/upstream-gateway.ts';
import { MODEL } from './clients.ts';
import { forward, startFaultyUpstream, type FaultyUpstream } from './faulty-upstream.ts';

export type StandInName = 'a' | 'b' | 'c';

export interface StandIn {
  name: StandInName;
  protocol: TextProtocol;
  reference: TestServer;
  proxy: FaultyUpstream;
  /** Healthy again: the proxy listening and passing every request on. */
  heal(): Promise<void>;
}

export interface StandIns {
  all: StandIn[];
  byName: Record<StandInName, StandIn>;
  /** Every stand-in healthy, and what each received forgotten. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

const PROTOCOLS: Record<StandInName, TextProtocol> = { a: 'openai-chat', b: 'anthropic-messages', c: 'openai-responses' };

export async function startStandIns(): Promise<StandIns> {
  const all: StandIn[] = [];
  for (const name of ['a', 'b', 'c'] as const) {
    const reference = await startServer({ workers: { text: { workers: 1, queue: 64 }, images: { workers: 1, queue: 4 } } });
    const proxy = await startFaultyUpstream();
    const stand: StandIn = {
      name,
      protocol: PROTOCOLS[name],
      reference,
      proxy,
      async heal() {
        proxy.answer = forward(reference.baseUrl);
        await proxy.up();
      },
    };
    await stand.heal();
    all.push(stand);
  }
  return {
    all,
    byName: { a: all[0]!, b: all[1]!, c: all[2]! },
    async reset() {
      for (const stand of all) {
        await stand.heal();
        stand.proxy.received.length = 0;
      }
    },
    async close() {
      for (const stand of all) {
        await stand.proxy.close();
        await stand.reference.close();
      }
    },
  };
}

/** Time limits that never fire in a test about something else. */
export const PATIENT = { connect_ms: 10_000, first_byte_ms: 20_000, idle_ms: 20_000 };

/**
 * The built-in listing with `gpt-4o-mini` routed over `stands` as `routing` says (each upstream the reference's
 * model of the same id, `extra` merged into each by name: a weight, its time limits).
 */
export function routedCatalogue(stands: readonly StandIn[], routing: RoutingEntry, extra: Partial<Record<StandInName, Partial<UpstreamEntry>>> = {}): CatalogueEntry[] {
  const upstreams: UpstreamEntry[] = stands.map((stand) => ({
    name: stand.name,
    protocol: stand.protocol,
    base_url: baseUrlFor(stand.protocol, stand.proxy.origin),
    api_key_env: 'UPSTREAM_KEY',
    model: MODEL,
    timeouts: PATIENT,
    ...extra[stand.name],
  }));
  return builtInEntries().map((model) => (model.id === MODEL ? { ...model, upstreams, routing } : model));
}

/** The environment a routed gateway reads its upstream key from. */
export const UPSTREAM_ENV = { UPSTREAM_KEY };

export interface TestClock extends RoutingClock {
  /** Moves the clock on, as if that much time had passed. */
  advance(ms: number): void;
  /** Every wait the routers asked for, in milliseconds. */
  readonly slept: number[];
}

/** A routing clock that stands still until moved: its `sleep` moves it on by the wait and returns at once. */
export function testClock(start = Date.parse('2030-01-01T00:00:00Z')): TestClock {
  let now = start;
  const slept: number[] = [];
  return {
    now: () => now,
    async sleep(ms, signal) {
      signal.throwIfAborted();
      slept.push(ms);
      now += ms;
    },
    advance(ms) {
      now += ms;
    },
    slept,
  };
}
