/**
 * Every example answer of the contract is the reference's answer to the request it says gets it: each 2xx
 * and 4xx example carries `x-request` (the request, as changes to the operation's example request; the
 * format is in scripts/lib/example-answers.ts), this test sends that request to two reference servers on the
 * examples' clock, and compares:
 *
 * - status and media type, exactly;
 * - the body: the same shape (keys, array lengths, the same events of a stream, a usage chunk only where
 *   the request asks for one) and the same values, except where the two servers' answers differ (ids made
 *   at random), where the example may hold its own values, one for one; PNGs by their size;
 * - for the answer Prism sends by default (the first example of the first media type), the header values it
 *   sends with it (the contract's header examples, billing headers as the mock computes them, see
 *   scripts/lib/mock-headers.ts): equal to the reference's, and x-ratelimit-remaining-images consistent
 *   with the body (the quota left depends on what the key did before).
 *
 * `npx tsx scripts/examples.ts` rewrites the examples from the reference's answers when this fails because
 * the reference changed. The contract's own `x-gateway-billed-tokens` and `x-gateway-multiplier` examples
 * (16 and 0.5) are one value for every operation and cannot agree with each operation's body; the mock
 * sends each operation's own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, type HeaderObject, type ResponseObject } from '../../src/contract/index.ts';
import {
  answerOf,
  caseLabel,
  disagreements,
  documentedImageSizes,
  editImageSizes,
  exampleBody,
  exampleCases,
  exampleClock,
  notAnswered,
  pngSize,
  volatilePaths,
  type Answer,
  type ExampleCase,
} from '../../scripts/lib/example-answers.ts';
import { servedDocument } from '../../scripts/lib/prism.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const cases = exampleCases();
const answered = cases.filter((c) => c.request && !c.notAnswered);
const refused = cases.filter((c) => c.request && c.notAnswered);

const served = servedDocument(contract.spec) as typeof contract.spec;
const deref = <T>(value: unknown): T => {
  let node = value as { $ref?: string };
  while (node?.$ref) {
    node = node.$ref
      .slice(2)
      .split('/')
      .reduce<Record<string, unknown>>((at, t) => at[t.replace(/~1/g, '/').replace(/~0/g, '~')] as Record<string, unknown>, served as unknown as Record<string, unknown>);
  }
  return node as T;
};

/** The response of `c` as Prism serves it. */
function servedResponse(c: ExampleCase): ResponseObject {
  const item = served.paths[c.operation.path] as Record<string, { responses: Record<string, unknown> }>;
  return deref<ResponseObject>(item[c.operation.method]!.responses[c.status]);
}

/** Whether Prism answers `c` when nothing is asked: the first example of the response's first media type. */
function isPrismDefault(c: ExampleCase): boolean {
  return c.isDefault && Object.keys(servedResponse(c).content ?? {})[0] === c.mediaType;
}

/** Where the header values Prism sends with `c` disagree with the reference's answer. */
function headerDisagreements(c: ExampleCase, answer: Answer): string[] {
  const out: string[] = [];
  for (const [name, ref] of Object.entries(servedResponse(c).headers ?? {})) {
    const header = deref<HeaderObject & { example?: unknown }>(ref);
    if (header.example === undefined) continue;
    const lower = name.toLowerCase();
    const actual = answer.headers[lower];
    if (lower === 'x-ratelimit-remaining-images') {
      const limit = Number(answer.headers['x-ratelimit-limit-images']);
      const images = (c.value as { data: unknown[] }).data.length;
      if (!(Number(header.example) <= limit - images)) out.push(`${name}: ${header.example} left, but the quota is ${limit} and the answer holds ${images} images`);
    } else if (String(header.example) !== actual) {
      out.push(`${name}: ${String(header.example)}, the reference ${actual}`);
    }
  }
  return out;
}

let servers: TestServer[] = [];
beforeAll(async () => {
  const clock = exampleClock();
  servers = await Promise.all([0, 1].map(() => startServer({ now: () => clock })));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
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
    for (const name of ['createChatCompletion 400 EndpointNotOffered', 'createImage 429 DailyQuotaExceeded', 'createMessage 400 InvalidBody', 'getResponse 404 UnknownResponse']) {
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
    const [first, second] = await Promise.all(servers.map((s) => answerOf(s.baseUrl, c)));
    expect(first!.status, JSON.stringify(first!.body).slice(0, 500)).toBe(Number(c.status));
    expect(first!.contentType).toContain(c.mediaType);
    expect(disagreements(exampleBody(c), first!.body, volatilePaths(first!.body, second!.body))).toEqual([]);
    if (isPrismDefault(c)) expect(headerDisagreements(c, first!)).toEqual([]);
  });
});

describe('examples of a shared answer that an operation never gives', () => {
  it.each(refused.map((c) => [caseLabel(c), c.notAnswered!, c] as const))('%s: %s', async (_label, _why, c) => {
    const answer = await answerOf(servers[0]!.baseUrl, c);
    expect(answer.status).not.toBe(Number(c.status));
  });
});
