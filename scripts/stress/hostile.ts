/**
 * The hostile cases of the reliability run (issue list of docs/reliability.md): each sends the worst thing
 * a client can, and says what it got back against what it should get. Every case is also a test in
 * `npm test` (test/server/work-budget.test.ts, http-limits.test.ts, safe-defaults.test.ts,
 * streams-under-pressure.test.ts); here they run all at once, beside normal traffic.
 */
import { connect } from 'node:net';
import sharp from 'sharp';

export interface Outcome {
  name: string;
  expected: string;
  got: string;
  ok: boolean;
}

export interface Target {
  baseUrl: string;
  /** Ultimate-tier keys, one per image-heavy case so that quotas do not interfere. */
  keys: string[];
  adminToken: string;
}

const json = (key: string, body: unknown) => ({
  method: 'POST',
  headers: { 'x-api-key': key, 'content-type': 'application/json' },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

async function answer(name: string, expected: number, match: RegExp | undefined, send: () => Promise<Response>): Promise<Outcome> {
  try {
    const res = await send();
    const text = await res.text();
    const ok = res.status === expected && (match === undefined || match.test(text));
    return { name, expected: `${expected}${match ? ` ${match.source}` : ''}`, got: `${res.status} ${text.slice(0, 90)}`, ok };
  } catch (error) {
    return { name, expected: String(expected), got: `lost: ${(error as Error).message}`, ok: false };
  }
}

/** Sends raw bytes (slowly when `trickleMs` is set) and returns what the server sent before closing. */
function raw(baseUrl: string, head: string, trickleMs?: number): Promise<string> {
  const { port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port: Number(port) });
    let text = '';
    let timer: NodeJS.Timeout | undefined;
    socket.on('data', (chunk) => (text += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve(text);
    });
    socket.write(head);
    if (trickleMs) timer = setInterval(() => socket.writable && socket.write(' '), trickleMs);
  });
}

async function rawCase(name: string, expected: number, send: () => Promise<string>): Promise<Outcome> {
  const text = await send();
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
  const body = text.split('\r\n\r\n')[1] ?? '';
  return { name, expected: `${expected} {error}`, got: `${status} ${body.slice(0, 90)}`, ok: status === expected && body.startsWith('{"error":') };
}

const tool = (parameters: unknown, content = 'Call the tool.') => ({
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content }],
  tools: [{ type: 'function', function: { name: 'f', parameters } }],
  tool_choice: { type: 'function', function: { name: 'f' } },
});
const node = { $ref: '#/$defs/n' };

/**
 * Prepares every hostile case (the large bodies are built and serialized now, so that building them does
 * not stall the run's own event loop later), and returns the function that sends them all at once and
 * resolves when all have their answer.
 */
export async function prepareHostileCases(target: Target): Promise<() => Promise<Outcome[]>> {
  const { baseUrl, keys } = target;
  const chat = (body: unknown, key = keys[0]!) => fetch(`${baseUrl}/v1/chat/completions`, json(key, body));
  let seed = 7;
  const randomText = Array.from({ length: 4_000_000 }, () => String.fromCharCode(97 + ((seed = (seed * 48271) % 2147483647) % 26))).join('');
  const randomBody = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: randomText }] });
  const tooLarge = `{"model":"gpt-4o-mini","messages":[{"role":"user","content":"${'x'.repeat(21 * 1024 * 1024)}"}]}`;
  const manyKeys = `{"model":"gpt-4o-mini","messages":[],"metadata":{${Array.from({ length: 1_500_000 }, (_, i) => `"k${i}":0`).join(',')}}}`;
  const deep = `{"model":"gpt-4o-mini","messages":[],"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
  const source = (await sharp({ create: { width: 4096, height: 4096, channels: 3, background: '#264653' } }).png().toBuffer()).toString('base64');
  const white = (await sharp({ create: { width: 4096, height: 4096, channels: 4, background: '#ffffff' } }).png().toBuffer()).toString('base64');
  const editBody = (n: number, mask?: string) => JSON.stringify({ prompt: 'At dusk', image: source, mask, size: '1024x1024', n });
  const bodies = { one: editBody(1), ten: editBody(10), masked: editBody(1, white) };
  const edit = (key: string, kind: keyof typeof bodies) => fetch(`${baseUrl}/v1/generation/image/edit`, json(key, bodies[kind]));
  const port = new URL(baseUrl).port;
  const post = (length: number) => `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nx-api-key: ${keys[0]}\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\n\r\n`;

  return async () => {
  const cases: Array<Promise<Outcome | Outcome[]>> = [
    answer('200,000-character word', 200, /"prompt_tokens"/, () => chat({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'a'.repeat(200_000) }] })),
    answer('4,000,000 characters of random letters', 200, /"prompt_tokens"/, () => chat(randomBody)),
    answer('schema: four required self-references', 400, /10,000 parts/, () => chat(tool({ $defs: { n: { type: 'object', required: ['a', 'b', 'c', 'd'], properties: { a: node, b: node, c: node, d: node } } }, $ref: '#/$defs/n' }))),
    answer('schema: recursive array, minItems 4', 400, /10,000 parts/, () => chat(tool({ $defs: { l: { type: 'array', minItems: 4, items: { $ref: '#/$defs/l' } } }, type: 'object', required: ['x'], properties: { x: { $ref: '#/$defs/l' } } }))),
    answer('schema: anyOf of self-references', 400, /refers to itself/, () => chat(tool({ $defs: { n: { anyOf: [node, node, node] } }, type: 'object', required: ['x'], properties: { x: node } }))),
    answer('schema: allOf of a self-reference', 400, /refers to itself/, () => chat(tool({ $defs: { n: { allOf: [node] } }, type: 'object', required: ['x'], properties: { x: node } }))),
    answer('pattern ^(a|aa)+$ on 60 a and a b', 200, /tool_calls/, () => chat(tool({ type: 'object', required: ['code'], properties: { code: { type: 'string', pattern: '^(a|aa)+$' } } }, `My code is ${'a'.repeat(60)}b.`))),
    answer('minProperties 10,000', 400, /minProperties/, () => chat(tool({ type: 'object', minProperties: 10_000 }))),
    answer('minLength 80,000', 400, /minLength/, () => chat(tool({ type: 'object', required: ['s'], properties: { s: { type: 'string', minLength: 80_000 } } }))),
    answer('minItems 200,000', 400, /minItems/, () => chat(tool({ type: 'object', required: ['s'], properties: { s: { type: 'array', minItems: 200_000 } } }))),
    Promise.all(Array.from({ length: 8 }, (_, i) => answer(`4096² edit ${i + 1} of 8`, 200, /b64_json/, () => edit(keys[1 + (i % 3)]!, 'one')))),
    Promise.all(Array.from({ length: 4 }, (_, i) => answer(`4096² edit with a 4096² mask ${i + 1} of 4`, 200, /b64_json/, () => edit(keys[1 + (i % 3)]!, 'masked')))),
    answer('10-image edit of a 4096² picture', 200, /b64_json/, () => edit(keys[4]!, 'ten')),
    rawCase('body trickled 1 byte / 100 ms', 408, () => raw(baseUrl, `${post(10_000)}{`, 100)),
    rawCase('headers that never end', 408, () => raw(baseUrl, `GET /v1/models HTTP/1.1\r\nHost: x\r\n`)),
    rawCase('malformed header', 400, () => raw(baseUrl, 'GET /v1/models HTTP/1.1\r\nHost: x\r\nno colon\r\n\r\n')),
    rawCase('20 KB header', 431, () => raw(baseUrl, `GET /v1/models HTTP/1.1\r\nHost: x\r\nx-pad: ${'a'.repeat(20_000)}\r\n\r\n`)),
    answer('path parameter of 500 characters', 414, /"error"/, () => fetch(`${baseUrl}/dashboard/api/keys/${'k'.repeat(500)}`, { method: 'DELETE' })),
    answer('max_tokens 1e309', 400, /finite/, () => chat('{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"max_tokens":1e309}')),
    answer('a key twice', 400, /twice/, () => chat('{"model":"gpt-4o-mini","model":"gpt-4o","messages":[{"role":"user","content":"hi"}]}')),
    answer('body over 20 MiB', 413, /larger than/, () => chat(tooLarge)),
    answer('1,500,000 distinct keys in 17 MB', 413, /50,000 JSON values/, () => chat(manyKeys)),
    answer('100,000 levels of nested arrays', 413, /128 levels/, () => chat(deep)),
    signInStorm(target),
  ];
  return (await Promise.all(cases)).flat();
  };
}

/** Twelve wrong admin tokens from one address: the eleventh and later are refused 429 whatever they send. */
async function signInStorm({ baseUrl, adminToken }: Target): Promise<Outcome> {
  const statuses: number[] = [];
  for (let i = 0; i < 11; i++) {
    const res = await fetch(`${baseUrl}/dashboard/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: `guess-${i}` }) });
    statuses.push(res.status);
  }
  const right = await fetch(`${baseUrl}/dashboard/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: adminToken }) });
  statuses.push(right.status);
  const ok = statuses.slice(0, 10).every((s) => s === 401) && statuses.slice(10).every((s) => s === 429);
  return { name: '12 sign-ins: 11 wrong, then the right token', expected: '401 ×10, then 429', got: statuses.join(' '), ok };
}
