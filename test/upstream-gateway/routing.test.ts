// A model with several upstreams (decision D40), over real HTTP: a gateway whose gpt-4o-mini is routed over
// three stand-ins (stand-ins.ts: reference servers behind fault proxies, each speaking another protocol),
// asked in every client protocol. One upstream down: every request is served by another, saying which and
// after how many attempts. A 429: another serves, and the first gets nothing for its Retry-After. Weights
// 3:1 over 400 requests. A cool-down after N failures: no request to the upstream during it, then exactly one.
// A stream cut midway: the protocol's error event, no second upstream. All failing: one error naming every
// attempt, within the total time. A client that goes away stops the attempts. The log line and the admin API
// show what happened. The routers' clock is the test's: no test waits for a cool-down to pass.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RoutingEntry } from '../../src/server/catalogue/catalogue-file.ts';
import { logSink } from '../helpers/log.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { call, type Answer } from '../server/http.ts';
import { ask, clientProtocols, errorMessage, expectFailedStream, openStream, readStream, reassemble, requestOf, streamingClients, CLIENT_KEY, type ClientProtocol, type StreamingClient } from './clients.ts';
import { errorStatus, forward, neverAnswer, openaiError, anthropicError, type Behaviour } from './faulty-upstream.ts';
import { routedCatalogue, startStandIns, testClock, UPSTREAM_ENV, type StandIns, type StandInName, type TestClock } from './stand-ins.ts';

let stands: StandIns;
beforeAll(async () => {
  stands = await startStandIns();
});
afterAll(() => stands.close());

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
  await stands.reset();
});

const ADMIN_TOKEN = 'routing-test-admin-token-0123456789';

interface Routed {
  gateway: TestServer;
  clock: TestClock;
  log: ReturnType<typeof logSink>;
}

/** A gateway with gpt-4o-mini routed over the stand-ins as `routing` says; the routers on the test's clock. */
async function routedGateway(routing: RoutingEntry, extra: Parameters<typeof routedCatalogue>[2] = {}, names: StandInName[] = ['a', 'b', 'c']): Promise<Routed> {
  const clock = testClock();
  const log = logSink('info');
  const gateway = await startServer({
    catalogue: routedCatalogue(names.map((n) => stands.byName[n]), routing, extra),
    environment: UPSTREAM_ENV,
    routingClock: clock,
    logger: log.logger,
    adminToken: ADMIN_TOKEN,
  });
  cleanup.push(() => gateway.close());
  return { gateway, clock, log };
}

/** How many requests each stand-in received. */
function received(): Record<StandInName, number> {
  return { a: stands.byName.a.proxy.received.length, b: stands.byName.b.proxy.received.length, c: stands.byName.c.proxy.received.length };
}

/** Which upstream served an answer, after how many attempts. */
function servedBy(answer: { headers: Headers }): { upstream: string | null; attempts: string | null } {
  return { upstream: answer.headers.get('x-gateway-upstream'), attempts: answer.headers.get('x-gateway-attempts') };
}

const fiveHundred = (name: StandInName): Behaviour => errorStatus(503, name === 'b' ? anthropicError('Overloaded', 'overloaded_error') : openaiError('The engine is overloaded', 'server_error'));

/** A whole answer in `client`'s protocol, checked to be a real one. */
async function answered(gateway: TestServer, client: ClientProtocol): Promise<Answer> {
  const answer = await ask(gateway.baseUrl, client);
  expect(answer.status, answer.text).toBe(200);
  const text = client === 'chat' ? answer.body.choices[0].message.content : client === 'messages' ? answer.body.content[0].text : client === 'responses' ? answer.body.output[0].content[0].text : answer.body.choices[0].text;
  expect(text.length).toBeGreaterThan(0);
  return answer;
}

/** A stream in `client`'s protocol, read whole and checked to have ended well. */
async function streamed(gateway: TestServer, client: StreamingClient): Promise<Response> {
  const res = await openStream(gateway.baseUrl, client);
  const said = reassemble(client, await readStream(res, client));
  expect(said.error).toBeUndefined();
  expect(said.text.length).toBeGreaterThan(0);
  expect(said.finish).toBeDefined();
  return res;
}

describe('one upstream down: every request is served by another', () => {
  it.each(['fallback', 'weighted'] as const)('%s: in every client protocol, whole and streamed, the answer says which upstream and after how many attempts', async (strategy) => {
    const { gateway, log } = await routedGateway({ strategy, cooldown: { failures: 1000 } });
    await stands.byName.a.proxy.down();
    const seen: Array<{ upstream: string | null; attempts: string | null }> = [];
    for (const client of clientProtocols) seen.push(servedBy(await answered(gateway, client)));
    for (const client of streamingClients) seen.push(servedBy(await streamed(gateway, client)));
    expect(received().a).toBe(0);
    for (const { upstream, attempts } of seen) {
      expect(['b', 'c']).toContain(upstream);
      // Fallback tries a first, every time; the weighted choice tries it whenever its turn comes.
      if (strategy === 'fallback') expect([upstream, attempts]).toEqual(['b', '2']);
      else expect(['1', '2']).toContain(attempts);
    }
    // One log line per request, each attempt with its upstream, outcome and time.
    const lines = log.entries.filter((e) => e.msg === 'upstream attempts');
    expect(lines).toHaveLength(seen.length);
    const failedOver = lines.filter((l) => (l.attempts as unknown[]).length === 2);
    expect(failedOver.length).toBeGreaterThan(0);
    for (const line of failedOver) {
      expect(line).toMatchObject({ level: 40, model: 'gpt-4o-mini', attempts: [{ upstream: 'a', outcome: 'connect_error', ms: expect.any(Number) }, { outcome: 'served', ms: expect.any(Number) }] });
    }
  });

  it('no upstream is tried twice when another can take the request, and a healthy first upstream serves alone (info line)', async () => {
    const { gateway, log } = await routedGateway({ strategy: 'fallback' });
    expect(servedBy(await answered(gateway, 'chat'))).toEqual({ upstream: 'a', attempts: '1' });
    expect(received()).toEqual({ a: 1, b: 0, c: 0 });
    expect(log.entries.filter((e) => e.msg === 'upstream attempts')).toEqual([expect.objectContaining({ level: 30, upstream: 'a', attempts: [expect.objectContaining({ upstream: 'a', outcome: 'served' })] })]);
  });
});

describe("a 429: another upstream serves, and the first gets nothing for its Retry-After", () => {
  it.each(clientProtocols)('%s', async (client) => {
    const { gateway, clock } = await routedGateway({ strategy: 'fallback' });
    stands.byName.a.proxy.answer = errorStatus(429, openaiError('Rate limit reached', 'rate_limit_error'), { 'retry-after': '30' });
    expect(servedBy(await answered(gateway, client))).toEqual({ upstream: 'b', attempts: '2' });
    // For the next 30 s of the routers' clock, a is left alone: b serves at once.
    for (let i = 0; i < 3; i++) {
      clock.advance(9_000);
      expect(servedBy(await answered(gateway, client))).toEqual({ upstream: 'b', attempts: '1' });
    }
    expect(received().a).toBe(1);
    // Its Retry-After over, a serves again (a rest it asked for ends healthy, without a probe).
    stands.byName.a.proxy.answer = forward(stands.byName.a.reference.baseUrl);
    clock.advance(3_001);
    expect(servedBy(await answered(gateway, client))).toEqual({ upstream: 'a', attempts: '1' });
  });

  it('the only upstream left: the request waits for its Retry-After (up to the cap) and tries it again', async () => {
    const { gateway, clock } = await routedGateway({ attempts: 2, retry_after_cap_ms: 5_000 }, {}, ['a']);
    let calls = 0;
    stands.byName.a.proxy.answer = (res, request) => (calls++ === 0 ? errorStatus(429, openaiError('Slow down'), { 'retry-after': '2' }) : forward(stands.byName.a.reference.baseUrl))(res, request);
    expect(servedBy(await answered(gateway, 'chat'))).toEqual({ upstream: 'a', attempts: '2' });
    expect(clock.slept).toEqual([2_000]);
  });

  it('a Retry-After beyond the cap: no waiting, 503 with the Retry-After the upstream gave (up to the cap)', async () => {
    const { gateway, clock } = await routedGateway({ attempts: 2, retry_after_cap_ms: 5_000 }, {}, ['a']);
    stands.byName.a.proxy.answer = errorStatus(429, openaiError('Slow down'), { 'retry-after': '120' });
    const answer = await ask(gateway.baseUrl, 'chat');
    const message = errorMessage('chat', answer, 503);
    expect(message).toMatch(/every upstream tried is busy \(1 attempt\): upstream 'a' \(http:\/\/127\.0\.0\.1:\d+\): answered 429 \(Retry-After 120 s\): Slow down/);
    expect(answer.headers.get('retry-after')).toBe('120');
    expect(clock.slept).toEqual([]);
  });
});

describe('weights 3:1', () => {
  it('send 75% ± 5% of 400 requests to the first (smooth weighted round robin: exactly 300)', async () => {
    const { gateway } = await routedGateway({ strategy: 'weighted' }, { a: { weight: 3 }, b: { weight: 1 } }, ['a', 'b']);
    const counts: Record<string, number> = {};
    for (let batch = 0; batch < 50; batch++) {
      const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => ask(gateway.baseUrl, clientProtocols[(batch * 8 + i) % clientProtocols.length]!)));
      for (const answer of answers) {
        expect(answer.status, answer.text).toBe(200);
        const upstream = answer.headers.get('x-gateway-upstream')!;
        counts[upstream] = (counts[upstream] ?? 0) + 1;
      }
    }
    expect(counts.a! + counts.b!).toBe(400);
    expect(Math.abs(counts.a! / 400 - 0.75)).toBeLessThanOrEqual(0.05);
    expect(counts).toEqual({ a: 300, b: 100 });
    expect(received()).toEqual({ a: 300, b: 100, c: 0 });
  });
});

describe('a cool-down after N failures within the window', () => {
  it('no request reaches the upstream while it cools down; then exactly one tries it; a failed probe cools it down again, a served one heals it', async () => {
    const { gateway, clock } = await routedGateway({ strategy: 'fallback', cooldown: { failures: 2, window_ms: 60_000, duration_ms: 30_000 } }, {}, ['a', 'b']);
    stands.byName.a.proxy.answer = fiveHundred('a');
    expect(servedBy(await answered(gateway, 'chat'))).toEqual({ upstream: 'b', attempts: '2' });
    clock.advance(1_000);
    expect(servedBy(await answered(gateway, 'messages'))).toEqual({ upstream: 'b', attempts: '2' });
    expect(received().a).toBe(2);

    // Cooling down: 30 s of the clock, and any number of requests, none of them to a.
    for (let i = 0; i < 6; i++) {
      clock.advance(4_900);
      expect(servedBy(await answered(gateway, clientProtocols[i % 4]!))).toEqual({ upstream: 'b', attempts: '1' });
    }
    expect(received().a).toBe(2);
    const cooling = await upstreamsOf(gateway);
    expect(cooling.upstreams[0]).toMatchObject({ name: 'a', state: 'cooling_down', until: new Date(Date.parse('2030-01-01T00:00:01Z') + 30_000).toISOString(), lastFailure: { kind: 'server_error', message: expect.stringMatching(/^answered 503: The engine is overloaded$/) } });

    // The cool-down over: requests at once, and exactly one of them reaches a (its probe, held until the others are served).
    clock.advance(1_000);
    expect((await upstreamsOf(gateway)).upstreams[0]).toMatchObject({ name: 'a', state: 'probing' });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    stands.byName.a.proxy.answer = async (res, request) => {
      await held;
      fiveHundred('a')(res, request);
    };
    const bBefore = received().b;
    const together = Array.from({ length: 5 }, () => ask(gateway.baseUrl, 'chat'));
    await stands.byName.a.proxy.request(2);
    // The four others went to b while a's probe was on its way.
    await stands.byName.b.proxy.request(bBefore + 3);
    expect(received().a).toBe(3);
    release();
    const all = await Promise.all(together);
    for (const answer of all) expect(servedBy(answer).upstream).toBe('b');
    expect(all.map((a) => servedBy(a).attempts).sort()).toEqual(['1', '1', '1', '1', '2']);
    expect(received().a).toBe(3);

    // The failed probe cooled a down again: nothing for another 30 s; then a probe that is served heals it.
    clock.advance(29_000);
    await answered(gateway, 'chat');
    expect(received().a).toBe(3);
    stands.byName.a.proxy.answer = forward(stands.byName.a.reference.baseUrl);
    clock.advance(1_001);
    expect(servedBy(await answered(gateway, 'chat'))).toEqual({ upstream: 'a', attempts: '1' });
    expect(servedBy(await answered(gateway, 'chat'))).toEqual({ upstream: 'a', attempts: '1' });
    expect((await upstreamsOf(gateway)).upstreams[0]).toMatchObject({ name: 'a', state: 'healthy', recentFailures: 0, attempts: 5, served: 2 });
  });

  it('every upstream cooling down: 503 at once, with Retry-After until the first comes back, naming each', async () => {
    const { gateway, clock } = await routedGateway({ strategy: 'fallback', cooldown: { failures: 1, duration_ms: 20_000 } }, {}, ['a', 'b']);
    await stands.byName.a.proxy.down();
    stands.byName.b.proxy.answer = fiveHundred('b');
    errorMessage('chat', await ask(gateway.baseUrl, 'chat'), 502);
    clock.advance(5_000);
    const answer = await ask(gateway.baseUrl, 'messages');
    const message = errorMessage('messages', answer, 503);
    expect(message).toMatch(/every upstream is cooling down after failures: upstream 'a' not tried: cooling down until 2030-01-01T00:00:20\.000Z; upstream 'b' not tried: cooling down until 2030-01-01T00:00:20\.000Z/);
    expect(answer.headers.get('retry-after')).toBe('15');
    expect(servedBy(answer)).toEqual({ upstream: null, attempts: '0' });
    expect(received()).toEqual({ a: 0, b: 1, c: 0 });
  });
});

describe('a stream that has begun is never moved to another upstream', () => {
  it.each(streamingClients)("cut midway (%s client): the protocol's error event, and no second upstream", async (client) => {
    const { gateway } = await routedGateway({ strategy: 'fallback' });
    // The cut comes once the client has read text: its stream has begun.
    let begun!: () => void;
    const clientHasText = new Promise<void>((resolve) => (begun = resolve));
    stands.byName.a.proxy.answer = forward(stands.byName.a.reference.baseUrl, { cut: { afterEvents: 4, when: clientHasText } });
    const res = await openStream(gateway.baseUrl, client);
    expect(servedBy(res)).toEqual({ upstream: 'a', attempts: '1' });
    const events = await readStream(res, client, (event) => {
      if (reassemble(client, [event]).text.length > 0) begun();
    });
    const failed = expectFailedStream(client, events, 502);
    expect(failed.error).toMatch(/cut its answer off/);
    expect(received()).toEqual({ a: 1, b: 0, c: 0 });
  });
});

describe('every upstream failing', () => {
  it.each(clientProtocols)('one 502 naming each attempt, in the operation’s error shape, no key in it (%s)', async (client) => {
    const { gateway } = await routedGateway({ strategy: 'fallback' });
    await stands.byName.a.proxy.down();
    stands.byName.b.proxy.answer = fiveHundred('b');
    stands.byName.c.proxy.answer = errorStatus(500, openaiError('Internal failure', 'server_error'));
    const answer = await ask(gateway.baseUrl, client);
    const message = errorMessage(client, answer, 502);
    const origin = (name: StandInName) => stands.byName[name].proxy.origin.replace(/\./g, '\\.');
    expect(message).toMatch(
      new RegExp(`^Model 'gpt-4o-mini': no upstream could answer \\(3 attempts\\): upstream 'a' \\(${origin('a')}\\): cannot be reached \\(ECONNREFUSED\\); upstream 'b' \\(${origin('b')}\\): answered 503: Overloaded; upstream 'c' \\(${origin('c')}\\): answered 500: Internal failure\\.$`),
    );
    expect(answer.text).not.toContain(UPSTREAM_ENV.UPSTREAM_KEY);
    expect(servedBy(answer)).toEqual({ upstream: null, attempts: '3' });
  });

  it.each(streamingClients)('a stream request too (%s): the error status, not a stream', async (client) => {
    const { gateway } = await routedGateway({ strategy: 'weighted' });
    for (const stand of stands.all) await stand.proxy.down();
    const { path, body } = requestOf(client, true);
    const answer = await call(gateway.baseUrl, 'POST', path, { key: CLIENT_KEY, body });
    expect(errorMessage(client, answer, 502)).toMatch(/no upstream could answer \(3 attempts\)/);
  });

  it('within the total time: an upstream that never begins is let go when the time is out (504), naming each attempt', async () => {
    const { gateway } = await routedGateway({ strategy: 'fallback', total_ms: 400 });
    await stands.byName.a.proxy.down();
    stands.byName.b.proxy.answer = fiveHundred('b');
    stands.byName.c.proxy.answer = neverAnswer();
    const answer = await ask(gateway.baseUrl, 'chat');
    expect(errorMessage('chat', answer, 504)).toMatch(
      /^Model 'gpt-4o-mini': no upstream answered within the request's 400 ms \(3 attempts\): upstream 'a' .*cannot be reached \(ECONNREFUSED\); upstream 'b' .*answered 503: Overloaded; upstream 'c' .*was still answering when the time ran out\.$/,
    );
    // The gateway let go of c's request.
    const request = await stands.byName.c.proxy.request(0);
    await request.abandoned;
    expect(request.wasAbandoned).toBe(true);
  });

  it('what is not retried (retry_on) ends the attempts: the 502 names the one made', async () => {
    const { gateway } = await routedGateway({ strategy: 'fallback', retry_on: ['connect_error'] });
    stands.byName.a.proxy.answer = fiveHundred('a');
    const message = errorMessage('chat', await ask(gateway.baseUrl, 'chat'), 502);
    expect(message).toMatch(/no upstream could answer \(1 attempt\): upstream 'a' .*: answered 503/);
    expect(received()).toEqual({ a: 1, b: 0, c: 0 });
  });

  it("the caller's own mistake (an upstream's 400) is passed on at once, no other upstream asked", async () => {
    const { gateway } = await routedGateway({ strategy: 'fallback' });
    stands.byName.a.proxy.answer = errorStatus(400, openaiError("'messages' is too long"));
    const answer = await ask(gateway.baseUrl, 'chat');
    expect(errorMessage('chat', answer, 400)).toMatch(/refused the request \(400\): 'messages' is too long/);
    expect(servedBy(answer)).toEqual({ upstream: null, attempts: null });
    expect(received()).toEqual({ a: 1, b: 0, c: 0 });
  });
});

describe('retries of one upstream', () => {
  it('a 5xx, then the same upstream again after a backoff with jitter (at most base × 2^(n−1))', async () => {
    const { gateway, clock } = await routedGateway({ attempts: 3, backoff: { base_ms: 100, max_ms: 150 } }, {}, ['a']);
    let calls = 0;
    stands.byName.a.proxy.answer = (res, request) => (calls++ < 2 ? fiveHundred('a') : forward(stands.byName.a.reference.baseUrl))(res, request);
    expect(servedBy(await answered(gateway, 'responses'))).toEqual({ upstream: 'a', attempts: '3' });
    expect(clock.slept).toHaveLength(2);
    expect(clock.slept[0]).toBeLessThanOrEqual(100);
    expect(clock.slept[1]).toBeLessThanOrEqual(150);
  });
});

describe('a client that goes away stops the attempts', () => {
  it('its upstream request is let go, and no other upstream is asked', async () => {
    const { gateway } = await routedGateway({ strategy: 'fallback' });
    stands.byName.a.proxy.answer = neverAnswer();
    const leaving = new AbortController();
    const { path, body } = requestOf('chat', false);
    const asking = fetch(`${gateway.baseUrl}${path}`, { method: 'POST', headers: { 'x-api-key': CLIENT_KEY, 'content-type': 'application/json' }, body: JSON.stringify(body), signal: leaving.signal });
    const request = await stands.byName.a.proxy.request(0);
    leaving.abort();
    await expect(asking).rejects.toThrow();
    await request.abandoned;
    expect(request.wasAbandoned).toBe(true);
    expect(received()).toEqual({ a: 1, b: 0, c: 0 });
    gateway.app.server.closeAllConnections();
  });
});

/** The admin API's account of gpt-4o-mini's upstreams. */
async function upstreamsOf(gateway: TestServer): Promise<any> {
  const answer = await call(gateway.baseUrl, 'GET', '/dashboard/api/upstreams', { headers: { 'x-admin-token': ADMIN_TOKEN } });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.models.find((m: { model: string }) => m.model === 'gpt-4o-mini');
}
