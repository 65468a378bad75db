// An upstream's failures as the gateway's clients see them (decision D31), over real HTTP: a gateway whose
// chat models are answered by a faulty upstream (faulty-upstream.ts) in each text protocol, asked in each of
// its client protocols. Failures before an answer began are the gateway's status and message in the
// operation's error shape; a stream that fails after it began ends with its protocol's error event, what it
// said before intact; the operator's key is in no message; each protocol's credentials reach the upstream; a
// client that goes away makes the gateway let go of its upstream request.
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import { baseUrlFor, upstreamCatalogue, type TextProtocol } from '../helpers/upstream-gateway.ts';
import { call, type Answer } from '../server/http.ts';
import {
  ask,
  CLIENT_KEY,
  clientProtocols,
  errorMessage,
  expectFailedStream,
  MODEL,
  openStream,
  readStream,
  requestOf,
  streamingClients,
  type ClientProtocol,
  type StreamingClient,
} from './clients.ts';
import {
  deadOrigin,
  errorStatus,
  heldStream,
  neverAnswer,
  okJson,
  protocolEvents,
  startFaultyUpstream,
  stream,
  vendorError,
  type Behaviour,
  type FaultyUpstream,
  type UpstreamSse,
} from './faulty-upstream.ts';

const textProtocols: readonly TextProtocol[] = ['openai-chat', 'anthropic-messages', 'openai-responses'];

/** The operator's key for the upstream: it must reach the upstream and no client. */
const SECRET = 'sk-operator-secret-5f3a9c1e7b';

/** Time limits that never fire in a test about something else. */
const PATIENT = { connect_ms: 10_000, first_byte_ms: 20_000, idle_ms: 20_000 };
/** A limit that is bound to fire: the upstream of the test never sends what it waits for. */
const SHORT_MS = 250;

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  // The gateway first (its pools wait for nothing then), the upstream last.
  for (const close of cleanup.splice(0).reverse()) await close();
});

async function faultyUpstream(): Promise<FaultyUpstream> {
  const upstream = await startFaultyUpstream();
  cleanup.push(() => upstream.close());
  return upstream;
}

/** A gateway whose chat models are answered at `origin` in `protocol`; `extra` is merged into each upstream entry. */
async function gatewayOn(protocol: TextProtocol, origin: string, timeouts: Partial<typeof PATIENT> = {}, extra: Record<string, unknown> = {}): Promise<TestServer> {
  const catalogue = upstreamCatalogue(protocol, baseUrlFor(protocol, origin), { timeouts: { ...PATIENT, ...timeouts }, ...extra });
  const gateway = await startServer({ catalogue, environment: { UPSTREAM_KEY: SECRET } });
  cleanup.push(() => gateway.close());
  return gateway;
}

/**
 * After a client's abort, Node's fetch opens a spare connection to the gateway that never carries a request;
 * the gateway's graceful close would wait seconds for it. The test is over: its connections are cut.
 */
function leftBehind(gateway: TestServer): void {
  gateway.app.server.closeAllConnections();
}

/** A message of the gateway's about an upstream failure: it names the model and the upstream, never the key. */
function expectNamed(message: string, origin: string): void {
  expect(message).toContain(`'${MODEL}'`);
  expect(message).toContain(origin);
  expect(message).not.toContain(SECRET);
}

/** The events an answer opens with in `protocol`, without its first piece of text: the client's stream has not begun. */
function opening(protocol: TextProtocol): UpstreamSse[] {
  return protocolEvents[protocol].start('Hello').slice(0, -1);
}

interface Row {
  title: string;
  status: number;
  /** Which requests the row is about: whole answers, streams, or both. */
  modes: ReadonlyArray<'whole' | 'stream'>;
  timeouts?: Partial<typeof PATIENT>;
  /** The upstream's behaviour; `undefined`: no upstream at all (a port nothing listens on). */
  behaviour?: (protocol: TextProtocol, mode: 'whole' | 'stream') => Behaviour;
  /** What else the message says (the upstream's words, or that they are left out). */
  says?: RegExp;
  saysNot?: RegExp;
  retryAfter?: string;
}

const UPSTREAM_WORDS = 'The upstream words of this failure';

const rows: Row[] = [
  { title: 'an upstream that cannot be reached → 502', status: 502, modes: ['whole', 'stream'], says: /cannot be reached/ },
  { title: 'no first byte within first_byte_ms → 504', status: 504, modes: ['whole', 'stream'], timeouts: { first_byte_ms: SHORT_MS }, behaviour: () => neverAnswer(), says: /did not begin its answer in time/ },
  {
    title: 'silence after the head, before the answer began, past idle_ms → 504',
    status: 504,
    modes: ['whole', 'stream'],
    timeouts: { idle_ms: SHORT_MS },
    behaviour: (protocol, mode) => (mode === 'stream' ? stream(opening(protocol), 'silent') : headThenSilence()),
    says: /went silent/,
  },
  ...[500, 502, 503, 529].map(
    (status): Row => ({
      title: `an upstream ${status} → 502 with the upstream's words`,
      status: 502,
      modes: ['whole', 'stream'],
      behaviour: (protocol) => errorStatus(status, vendorError(protocol, UPSTREAM_WORDS, 'api_error')),
      says: new RegExp(`failed \\(${status}\\): ${UPSTREAM_WORDS}`),
    }),
  ),
  ...[401, 403].map(
    (status): Row => ({
      title: `an upstream ${status} → 502: the gateway's own credentials, without the upstream's words`,
      status: 502,
      modes: ['whole', 'stream'],
      behaviour: (protocol) => errorStatus(status, vendorError(protocol, UPSTREAM_WORDS, 'authentication_error')),
      says: new RegExp(`refused the gateway's own credentials \\(${status}\\)`),
      saysNot: new RegExp(UPSTREAM_WORDS),
    }),
  ),
  { title: 'an upstream 408 → 504', status: 504, modes: ['whole', 'stream'], behaviour: (protocol) => errorStatus(408, vendorError(protocol, UPSTREAM_WORDS)), says: /timed out \(408\)/ },
  {
    title: "an upstream 429 with Retry-After → 503 with the upstream's Retry-After, not the caller's quota",
    status: 503,
    modes: ['whole', 'stream'],
    behaviour: (protocol) => errorStatus(429, vendorError(protocol, UPSTREAM_WORDS, 'rate_limit_error'), { 'retry-after': '7' }),
    says: /busy \(it answered 429\).*not your key's quota/,
    retryAfter: '7',
  },
  { title: 'an upstream 429 without Retry-After → 503, Retry-After 5', status: 503, modes: ['whole'], behaviour: (protocol) => errorStatus(429, vendorError(protocol, UPSTREAM_WORDS)), retryAfter: '5' },
  { title: "an upstream 429 asking for a day → 503, Retry-After clamped to 3600", status: 503, modes: ['whole'], behaviour: (protocol) => errorStatus(429, vendorError(protocol, UPSTREAM_WORDS), { 'retry-after': '86400' }), retryAfter: '3600' },
  ...[400, 404, 422].map(
    (status): Row => ({
      title: `an upstream ${status} → 400 with the upstream's words`,
      status: 400,
      modes: ['whole', 'stream'],
      behaviour: (protocol) => errorStatus(status, vendorError(protocol, UPSTREAM_WORDS)),
      says: new RegExp(`refused the request \\(${status}\\): ${UPSTREAM_WORDS}`),
    }),
  ),
  { title: 'a JSON answer that is not the protocol → 502', status: 502, modes: ['whole'], behaviour: () => okJson({ hello: 'world' }), says: /sent an answer that is not/ },
  { title: 'an answer that is not JSON → 502', status: 502, modes: ['whole'], behaviour: () => okJson('<html>Bad gateway</html>', 'text/html'), says: /not JSON/ },
  { title: 'a stream request answered with JSON → 502', status: 502, modes: ['stream'], behaviour: (protocol) => okJson(protocolEvents[protocol].whole('Hello')), says: /not text\/event-stream/ },
  { title: 'a stream cut after its head, before the answer began → 502', status: 502, modes: ['stream'], behaviour: (protocol) => stream(opening(protocol), 'cut'), says: /cut its answer off/ },
  {
    title: "the protocol's error event before the answer began → 502 with the upstream's words",
    status: 502,
    modes: ['stream'],
    behaviour: (protocol) => stream([...opening(protocol), protocolEvents[protocol].error(UPSTREAM_WORDS)]),
    says: new RegExp(`failed while answering: .*${UPSTREAM_WORDS}`),
  },
];

/** A 200 whose head says JSON and whose body never comes. */
function headThenSilence(): Behaviour {
  return (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.flushHeaders();
  };
}

describe.each(textProtocols)('an %s upstream', (protocol) => {
  describe('failures before the answer began: the status of D31, in each operation’s error shape', () => {
    it.each(rows)('$title', async (row) => {
      let origin: string;
      let upstream: FaultyUpstream | undefined;
      if (row.behaviour) {
        upstream = await faultyUpstream();
        origin = upstream.origin;
      } else {
        origin = await deadOrigin();
      }
      const gateway = await gatewayOn(protocol, origin, row.timeouts);
      if (upstream) upstream.answer = (res, request) => row.behaviour!(protocol, request.json?.stream ? 'stream' : 'whole')(res, request);
      // The requests go together: each waits for its own failure (a time limit's is about a second).
      const asked: Array<Promise<{ client: ClientProtocol; answer: Answer }>> = [];
      if (row.modes.includes('whole')) for (const client of clientProtocols) asked.push(ask(gateway.baseUrl, client).then((answer) => ({ client, answer })));
      if (row.modes.includes('stream')) {
        for (const client of streamingClients) {
          const { path, body } = requestOf(client, true);
          asked.push(call(gateway.baseUrl, 'POST', path, { key: CLIENT_KEY, body }).then((answer) => ({ client, answer })));
        }
      }
      for (const { client, answer } of await Promise.all(asked)) {
        const message = errorMessage(client, answer, row.status);
        expectNamed(message, origin);
        if (row.says) expect(message).toMatch(row.says);
        if (row.saysNot) expect(message).not.toMatch(row.saysNot);
        expect(answer.headers.get('retry-after')).toBe(row.retryAfter ?? null);
      }
      // Every request reached the upstream once: the gateway retries nothing.
      if (upstream) expect(upstream.received).toHaveLength(asked.length);
    });

    // (Stop sequences an OpenAI protocol cannot take are the gateway's to keep: stop-sequences.test.ts.)
    const cannotTake: Array<{ client: ClientProtocol; extra: Record<string, unknown>; says: RegExp }> = {
      'openai-chat': [],
      'openai-responses': [],
      'anthropic-messages': (['chat', 'responses', 'prompt'] as const).map((client) => ({ client, extra: { temperature: 1.5 }, says: /temperature ranges from 0 to 1/ })),
    }[protocol];

    if (cannotTake.length > 0) it.each(cannotTake)("what the upstream's protocol cannot take → 400 naming it, nothing sent ($client)", async ({ client, extra, says }) => {
      const upstream = await faultyUpstream();
      const gateway = await gatewayOn(protocol, upstream.origin);
      const message = errorMessage(client, await ask(gateway.baseUrl, client, extra), 400);
      expect(message).toMatch(says);
      expect(message).toMatch(/upstream speaks (OpenAI|Anthropic)/);
      expect(upstream.received).toHaveLength(0);
    });
  });

  describe("a stream that fails after it began ends with the client protocol's error event, what came before intact", () => {
    type Kind = 'cut' | 'malformed event' | 'error event' | 'silence';
    const kinds: Array<{ kind: Kind; status: number; says: RegExp }> = [
      { kind: 'cut', status: 502, says: /cut its answer off/ },
      { kind: 'malformed event', status: 502, says: /an event that is not JSON/ },
      { kind: 'error event', status: 502, says: new RegExp(`failed while answering: .*${UPSTREAM_WORDS}`) },
      { kind: 'silence', status: 504, says: /went silent in the middle of its answer/ },
    ];
    const cases = streamingClients.flatMap((client) => kinds.map((k) => ({ client, ...k })));

    it.each(cases)('$client client, $kind → $status', async ({ client, kind, status, says }) => {
      const upstream = await faultyUpstream();
      const gateway = await gatewayOn(protocol, upstream.origin, kind === 'silence' ? { idle_ms: SHORT_MS } : {});
      const events = protocolEvents[protocol];
      // The failure comes once the client has read the first piece of text: its stream has begun.
      let begun!: () => void;
      const clientHasText = new Promise<void>((resolve) => (begun = resolve));
      const malformed: UpstreamSse = { ...(protocol !== 'openai-chat' && { event: protocol === 'anthropic-messages' ? 'content_block_delta' : 'response.output_text.delta' }), data: '{"type": "content_block_delta", "delta": {"te' };
      upstream.answer = {
        cut: () => heldStream(events.start('Hello'), clientHasText, [], 'cut'),
        'malformed event': () => heldStream(events.start('Hello'), clientHasText, [malformed], 'end'),
        'error event': () => heldStream(events.start('Hello'), clientHasText, [events.error(UPSTREAM_WORDS)], 'end'),
        // Nothing more, ever: the gateway's idle limit must end it.
        silence: () => stream(events.start('Hello'), 'silent'),
      }[kind]();

      const res = await openStream(gateway.baseUrl, client);
      const received = await readStream(res, client, (event) => {
        if (JSON.stringify(event.data).includes('Hello')) begun();
      });
      const failed = expectFailedStream(client, received, status);
      expect(failed.text).toBe('Hello');
      expectNamed(failed.error, upstream.origin);
      expect(failed.error).toMatch(says);
    });
  });

  describe('credentials: each protocol carries the operator key its own way, and nothing of the client', () => {
    const expected = (key: string | undefined): Record<string, string | undefined> =>
      protocol === 'anthropic-messages'
        ? { 'x-api-key': key, 'anthropic-version': '2023-06-01', authorization: undefined }
        : { authorization: key && `Bearer ${key}`, 'x-api-key': undefined, 'anthropic-version': undefined };
    const path = { 'openai-chat': '/v1/chat/completions', 'openai-responses': '/v1/responses', 'anthropic-messages': '/v1/messages' }[protocol];

    it.each([
      { title: 'with api_key_env: the key from the environment', extra: {}, key: SECRET },
      { title: 'without api_key_env: no credential header at all', extra: { api_key_env: undefined }, key: undefined },
    ])('$title', async ({ extra, key }) => {
      const upstream = await faultyUpstream();
      const gateway = await gatewayOn(protocol, upstream.origin, {}, { ...extra, model: 'the-upstream-model' });
      upstream.answer = (res, request) => (request.json?.stream ? stream([...protocolEvents[protocol].start('Hello'), ...protocolEvents[protocol].finish()]) : okJson(protocolEvents[protocol].whole('Hello')))(res, request);
      const whole = await ask(gateway.baseUrl, 'chat');
      expect(whole.status, whole.text).toBe(200);
      expect(whole.body.choices[0].message.content).toBe('Hello');
      const streamed = await openStream(gateway.baseUrl, 'messages');
      expect((await readStream(streamed, 'messages')).at(-1)!.event).toBe('message_stop');

      expect(upstream.received).toHaveLength(2);
      for (const [i, request] of upstream.received.entries()) {
        expect(request.method).toBe('POST');
        expect(request.url).toBe(path);
        for (const [name, value] of Object.entries(expected(key))) expect(request.headers[name], name).toBe(value);
        expect(request.headers['content-type']).toBe('application/json');
        expect(request.json.model).toBe('the-upstream-model');
        expect(Boolean(request.json.stream)).toBe(i === 1);
        // The client's own key is the gateway's business, never the upstream's.
        expect(JSON.stringify(request.headers)).not.toContain(CLIENT_KEY);
      }
    });
  });

  describe('the operator key is never in a message, even when the upstream quotes it', () => {
    /** What the upstream says: the credentials it received, as some servers quote them. */
    const quoting = (request: { headers: Record<string, unknown> }) => `Invalid credentials: ${String(request.headers.authorization ?? '')} ${String(request.headers['x-api-key'] ?? '')}`;

    it.each([400, 429, 500])('an upstream %i quoting the key: its words are passed on with the key replaced', async (status) => {
      const upstream = await faultyUpstream();
      const gateway = await gatewayOn(protocol, upstream.origin);
      upstream.answer = (res, request) => errorStatus(status, vendorError(protocol, quoting(request)))(res, request);
      for (const client of clientProtocols) {
        const answer = await ask(gateway.baseUrl, client);
        expect(answer.text).not.toContain(SECRET);
        expect([...answer.headers.values()].join('\n')).not.toContain(SECRET);
        expect(answer.text).toContain("Invalid credentials:");
        expect(answer.text).toContain("[the gateway's key]");
      }
    });

    it('an upstream 401 quoting the key: none of its words are passed on', async () => {
      const upstream = await faultyUpstream();
      const gateway = await gatewayOn(protocol, upstream.origin);
      upstream.answer = (res, request) => errorStatus(401, vendorError(protocol, quoting(request), 'authentication_error'))(res, request);
      for (const client of clientProtocols) {
        const answer = await ask(gateway.baseUrl, client);
        expect(answer.status).toBe(502);
        expect(answer.text).not.toContain(SECRET);
        expect(answer.text).not.toContain('Invalid credentials');
      }
    });

    it.each(streamingClients)("an error event quoting the key in the middle of a stream (%s client)", async (client) => {
      const upstream = await faultyUpstream();
      const gateway = await gatewayOn(protocol, upstream.origin);
      upstream.answer = (res, request) => stream([...protocolEvents[protocol].start('Hello'), protocolEvents[protocol].error(quoting(request))])(res, request);
      const failed = expectFailedStream(client, await readStream(await openStream(gateway.baseUrl, client), client), 502);
      expect(failed.error).toContain("Invalid credentials:");
      expect(failed.error).toContain("[the gateway's key]");
      expect(failed.error).not.toContain(SECRET);
    });
  });

  describe('a client that goes away aborts the upstream request', () => {
    it.each(streamingClients)('in the middle of a stream (%s)', async (client) => {
      const upstream = await faultyUpstream();
      const gateway = await gatewayOn(protocol, upstream.origin);
      // The upstream sends the first events and then holds the stream open for as long as it is wanted.
      upstream.answer = heldStream(protocolEvents[protocol].start('Hello'), new Promise(() => undefined));
      const leaving = new AbortController();
      const res = await openStream(gateway.baseUrl, client, { signal: leaving.signal });
      const reading = readStream(res, client, () => leaving.abort());
      await expect(reading).rejects.toThrow();
      const request = await upstream.request(0);
      await request.abandoned;
      expect(request.wasAbandoned).toBe(true);
      leftBehind(gateway);
    });

    it.each(clientProtocols)('while waiting for a whole answer (%s)', async (client) => {
      const upstream = await faultyUpstream();
      const gateway = await gatewayOn(protocol, upstream.origin);
      upstream.answer = neverAnswer();
      const leaving = new AbortController();
      const { path, body } = requestOf(client, false);
      const asking = fetch(`${gateway.baseUrl}${path}`, { method: 'POST', headers: { 'x-api-key': CLIENT_KEY, 'content-type': 'application/json' }, body: JSON.stringify(body), signal: leaving.signal });
      const request = await upstream.request(0);
      expect(request.wasAbandoned).toBe(false);
      leaving.abort();
      await expect(asking).rejects.toThrow();
      await request.abandoned;
      expect(request.wasAbandoned).toBe(true);
      leftBehind(gateway);
    });
  });
});

describe('a stream that begins well and ends well through a faulty-upstream-shaped server', () => {
  // The counterpart of the failures above, so that their checks are known to pass on a good stream only
  // where they should: the same events, finished, give each client a whole answer and no error event.
  it.each(textProtocols.flatMap((protocol) => streamingClients.map((client) => ({ protocol, client }))))('$protocol upstream, $client client', async ({ protocol, client }) => {
    const upstream = await faultyUpstream();
    const gateway = await gatewayOn(protocol, upstream.origin);
    upstream.answer = stream([...protocolEvents[protocol].start('Hello'), ...protocolEvents[protocol].finish()]);
    const events = await readStream(await openStream(gateway.baseUrl, client), client);
    expect(() => expectFailedStream(client, events, 502)).toThrow();
    const last = events.at(-1)!;
    const end: Record<StreamingClient, unknown> = { chat: '[DONE]', messages: { type: 'message_stop' }, responses: expect.objectContaining({ type: 'response.completed' }) };
    expect(last.data).toEqual(end[client]);
  });
});
