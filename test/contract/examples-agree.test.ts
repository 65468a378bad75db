/**
 * Every example answer of the contract is the reference's answer to the request it says gets it: each 2xx
 * and 4xx example (and each 503 of a busy server) carries `x-request` (the request, as changes to the
 * operation's example request, and the state of the server; the format is in scripts/lib/example-answers.ts),
 * this test sends that request to two reference servers in that state on the examples' clock, and compares:
 *
 * - status and media type, exactly;
 * - the body: the same shape (keys, array lengths, the same events of a stream, a usage chunk only where
 *   the request asks for one) and the same values, except where the two servers' answers differ (ids made
 *   at random), where the example may hold its own values, one for one; PNGs by their size;
 * - for the answer Prism sends by default (the first example of the first media type), the header examples
 *   it sends with it: equal to the reference's (each operation has its own billing headers), and
 *   x-ratelimit-remaining-images consistent with the body (the quota left depends on what the key did before).
 *
 * `npx tsx scripts/examples.ts` rewrites the examples from the reference's answers when this fails because
 * the reference changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answerOf,
  caseLabel,
  disagreements,
  documentedImageSizes,
  editImageSizes,
  exampleBody,
  exampleCases,
  exampleClock,
  exampleServerOptions,
  headerDisagreements,
  isPrismDefault,
  notAnswered,
  pngSize,
  serverOf,
  volatilePaths,
  type ExampleServer,
} from '../../scripts/lib/example-answers.ts';
import { contract } from '../../src/contract/index.ts';
import { shuttingDown } from '../../src/server/domain/errors.ts';
import { errorFormatOf } from '../../src/server/http/error-formats.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const cases = exampleCases();
const answered = cases.filter((c) => c.request && !c.notAnswered);
const refused = cases.filter((c) => c.request && c.notAnswered);

/** Two servers in each state the examples' requests are sent to. */
const servers = {} as Record<ExampleServer, TestServer[]>;
beforeAll(async () => {
  const clock = exampleClock();
  for (const [state, options] of Object.entries(exampleServerOptions) as Array<[ExampleServer, object]>) {
    servers[state] = await Promise.all([0, 1].map(() => startServer({ now: () => clock, ...options })));
  }
});
afterAll(async () => {
  await Promise.all(Object.values(servers).flat().map((s) => s.close()));
});

describe('the examples and the requests that get them', () => {
  it('tie every 2xx and 4xx example to a request, or say why the reference never answers it', () => {
    const untied = cases.filter((c) => Number(c.status) < 500 && !c.request && !c.notAnswered).map(caseLabel);
    expect(untied).toEqual([]);
    const known = new Set(cases.map((c) => `${c.operation.operationId} ${c.status} ${c.name}`));
    expect(Object.keys(notAnswered).filter((key) => !known.has(key))).toEqual([]);
  });

  it('cover the error messages, a stream with and without usage, and one image per documented size', () => {
    const names = new Set(answered.map((c) => `${c.operation.operationId} ${c.status} ${c.name}`));
    for (const name of ['createChatCompletion 400 EndpointNotOffered', 'createImage 429 DailyQuotaExceeded', 'createMessage 400 InvalidBody', 'getResponse 404 UnknownResponse', 'createChatCompletion 503 Busy', 'createImage 503 Busy']) {
      expect(names).toContain(name);
    }
    const streams = answered.filter((c) => c.operation.operationId === 'createChatCompletion' && c.mediaType === 'text/event-stream');
    expect(streams.map((c) => (exampleBody(c) as Array<{ data: { usage?: unknown } }>).some((e) => e.data?.usage))).toEqual([false, true]);
    const sizes = (operationId: string) =>
      answered
        .filter((c) => c.operation.operationId === operationId && c.status === '200')
        .map((c) => pngSize((c.value as { data: Array<{ b64_json: string }> }).data[0]!.b64_json))
        .map((size) => `${size!.width}x${size!.height}`);
    expect(sizes('createImage')).toEqual(documentedImageSizes());
    expect(sizes('editImage').sort()).toEqual([...editImageSizes()].sort());
  });
});

describe('examples the reference gives', () => {
  it.each(answered.map((c) => [caseLabel(c), c] as const))("%s is the reference's answer", async (_label, c) => {
    const [first, second] = await Promise.all(servers[serverOf(c)].map((s) => answerOf(s.baseUrl, c)));
    expect(first!.status, JSON.stringify(first!.body).slice(0, 500)).toBe(Number(c.status));
    expect(first!.contentType).toContain(c.mediaType);
    expect(disagreements(exampleBody(c), first!.body, volatilePaths(first!.body, second!.body))).toEqual([]);
    if (isPrismDefault(c)) expect(headerDisagreements(c, first!)).toEqual([]);
  });
});

describe('examples of a shared answer that an operation never gives', () => {
  it.each(refused.map((c) => [caseLabel(c), c.notAnswered!, c] as const))('%s: %s', async (_label, _why, c) => {
    const answer = await answerOf(servers[serverOf(c)][0]!.baseUrl, c);
    expect(answer.status).not.toBe(Number(c.status));
  });
});

describe('the answers of a server that cannot take the request (503)', () => {
  it('are a busy answer on each operation a busy server refuses, and on no other', async () => {
    const refusedWhenBusy: string[] = [];
    for (const op of contract.operations) {
      // A request that a server with room answers 200, or else (reading a stored response needs one created
      // first, on a server that can) one that goes as far as the operation's own work.
      const linked = (a: (typeof answered)[number]) => a.request!.example !== undefined && !a.operation.raw.requestBody;
      const own = answered.filter((a) => a.operation === op && serverOf(a) === 'ready' && !linked(a));
      const c = own.find((a) => a.status === '200') ?? own.find((a) => a.status === '404')!;
      const answer = await answerOf(servers.busy[0]!.baseUrl, c);
      if (answer.status === 503) refusedWhenBusy.push(op.operationId);
    }
    const withBusyExample = [...new Set(answered.filter((c) => serverOf(c) === 'busy').map((c) => c.operation.operationId))];
    expect(withBusyExample.sort()).toEqual(refusedWhenBusy.sort());
    expect(refusedWhenBusy).toContain('createChatCompletion');
  });

  it.each(cases.filter((c) => c.status === '503' && !c.request).map((c) => [caseLabel(c), c] as const))(
    "%s, which no request brings about, is the operation's answer while the server shuts down",
    (_label, c) => {
      const closing = shuttingDown();
      expect(c.value).toEqual(errorFormatOf(c.operation)(503, closing.message));
      if (isPrismDefault(c)) expect(headerDisagreements(c, { status: 503, contentType: 'application/json', headers: { 'retry-after': String(closing.retryAfterSeconds) }, body: c.value })).toEqual([]);
    },
  );
});
