/**
 * The contract's example answers, each tied to the request that gets it from the reference implementation.
 * `scripts/examples.ts` writes the answers into openapi/ from the reference's own answers, and
 * test/contract/examples-agree.test.ts checks that every example still agrees with the reference.
 *
 * The tie is an `x-request` extension on each named example of a 2xx or 4xx answer: the request, written as
 * changes to the operation's example request (so the request is written once, beside its answer, and a
 * shared answer such as `Unauthorized` applies to every operation that uses it):
 *
 *   x-request:
 *     example: ChatCompletionToolsRequestExample  # start from this request example (default: the first one).
 *                                                 # An operation without a body (getResponse) sends it to the
 *                                                 # operation whose link leads here, and fills its path from
 *                                                 # the link (createResponse → GetResponse: response_id)
 *     key: sk-demo-starter                        # the API key (default sk-demo-ultimate; null: none)
 *     model: gpt-9                                # the model, where the operation takes it (query or body)
 *     query: {size: 512x512}                      # merged into the query
 *     body: {n: 11, image: null}                  # a JSON Merge Patch (RFC 7396) of the body: null removes
 *     oversize: bytes                             # a body just over PayloadTooLarge's `x-limits` (bytes or
 *                                                 # jsonValues), instead of the example's
 *     server: busy                                # sent to a reference whose engines have no worker free and
 *                                                 # no waiting place left (decision D23; default: ready)
 *
 * `x-request: {}` is the operation's example request itself. An example without `x-request` stands for a
 * state of the server that no request brings about (a fault, a shutdown: the other 5xx answers), or for an
 * answer the reference never gives (`notAnswered`).
 *
 * The header examples of the answer Prism sends when nothing is asked (`isPrismDefault`) are the reference's
 * headers with that answer, so each operation whose headers differ (the billing headers) has its own.
 */
import { contract, dailyImageQuota, tiers, type HeaderObject, type KeyTier, type Operation, type ParameterObject, type ResponseObject } from '../../src/contract/index.ts';
import { takesModel } from '../../src/conformance/examples.ts';
import { parseNamedEventStream } from '../../src/client/sse.ts';
import { resolvePointer } from '../../src/contract/refs.ts';
import type { GatewayOptions } from '../../src/server/app.ts';
import { bodyLimits } from '../../src/server/http/json-structure.ts';

export interface ExampleRequest {
  example?: string;
  key?: string | null;
  model?: string;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
  oversize?: 'bytes' | 'jsonValues';
  server?: ExampleServer;
}

/** The states of the reference an example's request is sent to (`x-request.server`). */
export type ExampleServer = 'ready' | 'busy';

/**
 * How the reference is started for each state: as it starts, or with engines that have no room (no worker,
 * no waiting place), so that each request for an engine's work answers 503 as a full pool makes it answer.
 */
export const exampleServerOptions: Readonly<Record<ExampleServer, GatewayOptions>> = {
  ready: {},
  busy: { workers: { text: { workers: 0, queue: 0 }, images: { workers: 0, queue: 0 } } },
};

/** The state of the reference the request of `c` is sent to. */
export function serverOf(c: ExampleCase): ExampleServer {
  return c.request?.server ?? 'ready';
}

export interface ExampleCase {
  operation: Operation;
  status: string;
  mediaType: string;
  name: string;
  /** The example's value: JSON, or the text of an event stream. */
  value: unknown;
  request?: ExampleRequest;
  /** The first example of its answer: what Prism answers unless asked for another, headers included. */
  isDefault: boolean;
  /** Why the reference never answers this example to this operation, when it does not. */
  notAnswered?: string;
}

/** The key a request is sent with unless its `x-request` names another. */
export const DEFAULT_KEY = 'sk-demo-ultimate';

const IMAGE_MODEL_TIER = 'the image model is a starter model and every key is starter or above, so no image request is refused for its tier';

/**
 * Examples of a shared answer that some operation using it never gives, keyed `operationId status name`,
 * with the reason. The test checks that the reference really answers their request otherwise.
 */
export const notAnswered: Readonly<Record<string, string>> = {
  'listModels 429 DailyQuotaExceeded': 'the listing has no quota; 429 is listed because the specification lists it (decision D13)',
  'createImage 403 TierTooLow': IMAGE_MODEL_TIER,
  'editImage 403 TierTooLow': IMAGE_MODEL_TIER,
  'createMessage 429 RateLimited': 'the reference has no limit on text (decision D11)',
  'countMessageTokens 429 RateLimited': 'the reference has no limit on text (decision D11)',
};

/** Image answers of sizes an edit cannot make (the edit shares its answer with generation). */
function editSizeRefused(op: Operation, request: ExampleRequest | undefined): string | undefined {
  const size = request?.body?.size;
  if (op.operationId !== 'editImage' || typeof size !== 'string') return undefined;
  const sizes = editImageSizes();
  return sizes.includes(size) ? undefined : `an edit makes ${sizes.join(' and ')} only; this answer is shared with generation`;
}

/** Every named example of every documented answer, with the request tied to it. */
export function exampleCases(): ExampleCase[] {
  return contract.operations.flatMap((operation) =>
    Object.entries(operation.responses).flatMap(([status, response]) =>
      Object.entries(contract.deref<ResponseObject>(response).content ?? {}).flatMap(([mediaType, media]) =>
        Object.entries(media.examples ?? {}).map(([name, ref], index): ExampleCase => {
          const example = contract.deref<{ value: unknown; 'x-request'?: ExampleRequest }>(ref);
          const request = example['x-request'];
          return {
            operation,
            status,
            mediaType,
            name,
            value: example.value,
            request,
            isDefault: index === 0,
            notAnswered: notAnswered[`${operation.operationId} ${status} ${name}`] ?? editSizeRefused(operation, request),
          };
        }),
      ),
    ),
  );
}

export function caseLabel(c: ExampleCase): string {
  return `${c.operation.operationId} ${c.status} ${c.mediaType} ${c.name}`;
}

// ---------------------------------------------------------------------------------------------------------
// Headers

/** Whether Prism answers `c` when nothing is asked: the first example of its response's first media type. */
export function isPrismDefault(c: ExampleCase): boolean {
  return c.isDefault && Object.keys(contract.deref<ResponseObject>(c.operation.responses[c.status]).content ?? {})[0] === c.mediaType;
}

/** The images left today depend on what the key did before: its example is bounded by the answer, not equal to it. */
const REMAINING_IMAGES = 'x-ratelimit-remaining-images';

/** The headers of the answer of `c` that have an example (which Prism sends with it), by lower-case name. */
export function exampleHeaders(c: ExampleCase): Array<[name: string, header: HeaderObject & { example: unknown }]> {
  const headers = contract.responseHeaders(contract.deref<ResponseObject>(c.operation.responses[c.status]));
  return Object.entries(headers).filter((entry): entry is [string, HeaderObject & { example: unknown }] => (entry[1] as { example?: unknown }).example !== undefined);
}

/**
 * The example a header of the reference's answer makes: its value, typed as the header's schema says; undefined
 * for the one that is bounded rather than equal (`x-ratelimit-remaining-images`).
 */
export function headerExample(name: string, header: HeaderObject, answer: Answer): unknown {
  const value = answer.headers[name];
  if (name === REMAINING_IMAGES || value === undefined) return undefined;
  return header.schema.type === 'integer' || header.schema.type === 'number' ? Number(value) : value;
}

/** Where the header examples Prism sends with `c` (its default answer) disagree with the reference's answer. */
export function headerDisagreements(c: ExampleCase, answer: Answer): string[] {
  const out: string[] = [];
  for (const [name, header] of exampleHeaders(c)) {
    if (name === REMAINING_IMAGES) {
      const limit = Number(answer.headers['x-ratelimit-limit-images']);
      const images = (c.value as { data: unknown[] }).data.length;
      if (!(Number(header.example) <= limit - images)) out.push(`${name}: ${header.example} left, but the quota is ${limit} and the answer holds ${images} images`);
    } else if (String(header.example) !== answer.headers[name]) {
      out.push(`${name}: ${String(header.example)}, the reference ${answer.headers[name]}`);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// The moment examples are answered at

/**
 * The clock the reference runs on for the examples: 2025-11-22, at the time of day when the daily quota
 * resets in as many seconds as the contract's `x-ratelimit-reset-images` example says, so that the quota
 * headers, `Retry-After` and every `created` agree.
 */
export function exampleClock(): Date {
  const header = contract.deref<{ example: number }>(contract.spec.components.headers['x-ratelimit-reset-images']);
  return new Date(Date.UTC(2025, 10, 22) + (86_400 - header.example) * 1000);
}

// ---------------------------------------------------------------------------------------------------------
// Sizes

/** The image sizes the contract documents, the default first: generation's `x-reference-sizes`, then the edit's. */
export function documentedImageSizes(): string[] {
  const size = imageSizeSchema('ImageGenerationRequest');
  return [...new Set([size.default as string, ...(size['x-reference-sizes'] as string[]), ...editImageSizes()])];
}

export function editImageSizes(): string[] {
  return imageSizeSchema('ImageEditRequest').enum as string[];
}

/** The demo key of the tier whose daily image quota the `x-ratelimit-limit-images` example shows, so that they agree. */
export function imageExampleKey(): string {
  const limit = contract.deref<{ example: number }>(contract.spec.components.headers['x-ratelimit-limit-images']).example;
  const tier = (tiers.filter((t) => t !== 'free') as KeyTier[]).find((t) => dailyImageQuota(t) === limit);
  if (!tier) throw new Error(`No tier has a daily image quota of ${limit}, the x-ratelimit-limit-images example`);
  return `sk-demo-${tier}`;
}

function imageSizeSchema(name: string): Record<string, unknown> {
  const schema = contract.spec.components.schemas[name] as { properties: Record<string, Record<string, unknown>> };
  return schema.properties.size!;
}

// ---------------------------------------------------------------------------------------------------------
// Requests

export interface Answer {
  status: number;
  contentType: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** JSON parsed, an event stream as its events, anything else as text. */
  body: unknown;
}

export interface StreamEvent {
  event?: string;
  /** JSON parsed, or the text (`[DONE]`). */
  data: unknown;
}

interface Outgoing {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** Sends the request of `c` to the server at `baseUrl` (a linked request first, when it needs one). */
export async function answerOf(baseUrl: string, c: ExampleCase): Promise<Answer> {
  if (!c.request) throw new Error(`${caseLabel(c)} has no x-request`);
  const request = await outgoing(baseUrl, c.operation, c.request, c.mediaType);
  const res = await fetch(`${baseUrl}${request.path}`, { method: request.method, headers: request.headers, body: request.body });
  return read(res);
}

async function read(res: Response): Promise<Answer> {
  const text = await res.text();
  const contentType = res.headers.get('content-type') ?? '';
  const body = /json/.test(contentType) ? JSON.parse(text) : /^text\/event-stream/.test(contentType) ? parseEvents(text) : text;
  return { status: res.status, contentType, headers: Object.fromEntries(res.headers), body };
}

async function outgoing(baseUrl: string, op: Operation, x: ExampleRequest, mediaType: string): Promise<Outgoing> {
  const headers: Record<string, string> = { accept: mediaType };
  const key = x.key === undefined ? DEFAULT_KEY : x.key;
  if (key !== null) headers['x-api-key'] = key;

  const examples = requestExamples(op);
  let body: Record<string, unknown> | undefined;
  let pathParams: Record<string, string> = {};
  if (examples.length > 0) {
    const name = x.example ?? examples[0]![0];
    const found = examples.find(([n]) => n === name);
    if (!found) throw new Error(`${op.operationId} has no request example ${name}`);
    body = structuredClone(found[1]) as Record<string, unknown>;
  } else if (x.example) {
    pathParams = await linkedParameters(baseUrl, op, x.example, key);
  }

  let path = op.path;
  const query = new URLSearchParams();
  for (const param of parametersOf(op)) {
    if (param.in === 'path') path = path.replace(`{${param.name}}`, encodeURIComponent(pathParams[param.name] ?? parameterExample(param)));
    if (param.in === 'query' && param.required) query.set(param.name, parameterExample(param));
  }
  for (const [name, value] of Object.entries(x.query ?? {})) query.set(name, value);
  if (x.model !== undefined) {
    const where = takesModel(contract, op);
    if (where === 'query') query.set('model', x.model);
    if (where === 'body' && body) body.model = x.model;
  }
  if (body && x.body) body = mergePatch(body, x.body) as Record<string, unknown>;

  let text = body === undefined ? undefined : JSON.stringify(body);
  if (x.oversize) text = oversized(x.oversize);
  if (text !== undefined) headers['content-type'] = 'application/json';
  const search = query.size > 0 ? `?${query}` : '';
  return { method: op.method.toUpperCase(), path: `${path}${search}`, headers, body: text };
}

/** The operation's parameters, those of its path included. */
function parametersOf(op: Operation): ParameterObject[] {
  const item = (contract.spec.paths as Record<string, { parameters?: unknown[] }>)[op.path];
  return [...(item?.parameters ?? []).map((p) => contract.deref<ParameterObject>(p)), ...op.parameters];
}

/** The request examples of an operation, in the contract's order, as `[name, value]`. */
function requestExamples(op: Operation): Array<[string, unknown]> {
  const media = op.raw.requestBody?.content['application/json'];
  return Object.entries(media?.examples ?? {}).map(([name, ex]) => [name, contract.deref<{ value: unknown }>(ex).value]);
}

function parameterExample(param: ParameterObject): string {
  const { example } = param as ParameterObject & { example?: unknown };
  const value = example ?? (param.schema.examples as unknown[] | undefined)?.[0];
  if (value === undefined) throw new Error(`Parameter ${param.name} has no example`);
  return String(value);
}

/**
 * The path parameters of `op`, from the link to it in the answer of the operation that has the request
 * example `exampleName` (e.g. createResponse's link GetResponse: `response_id: $response.body#/id`).
 */
async function linkedParameters(baseUrl: string, op: Operation, exampleName: string, key: string | null): Promise<Record<string, string>> {
  const source = contract.operations.find((o) => requestExamples(o).some(([name]) => name === exampleName));
  if (!source) throw new Error(`No operation has the request example ${exampleName}`);
  const links = Object.values(source.responses).flatMap((r) => Object.values((contract.deref<ResponseObject & { links?: Record<string, unknown> }>(r).links ?? {}) as Record<string, { operationId?: string; parameters?: Record<string, string> }>));
  const link = links.find((l) => l.operationId === op.operationId);
  if (!link) throw new Error(`${source.operationId} has no link to ${op.operationId}`);
  const request = await outgoing(baseUrl, source, { example: exampleName, key }, 'application/json');
  const answer = await read(await fetch(`${baseUrl}${request.path}`, { method: request.method, headers: request.headers, body: request.body }));
  if (answer.status >= 300) throw new Error(`${source.operationId} ${exampleName} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  const params: Record<string, string> = {};
  for (const [name, expression] of Object.entries(link.parameters ?? {})) {
    const pointer = /^\$response\.body#(.*)$/.exec(expression)?.[1];
    if (pointer === undefined) throw new Error(`Link parameter ${name}: only $response.body#… is supported, not ${expression}`);
    params[name] = String(resolvePointer(answer.body, pointer));
  }
  return params;
}

/** A body just over the contract's limit (`x-limits` of PayloadTooLarge, decision D22). */
function oversized(limit: 'bytes' | 'jsonValues'): string {
  if (limit === 'bytes') {
    const frame = '{"padding":""}';
    return `{"padding":"${'x'.repeat(bodyLimits.bytes + 1 - frame.length)}"}`;
  }
  return `{"padding":[${new Array(bodyLimits.jsonValues + 1).fill('0').join(',')}]}`;
}

/** RFC 7396: members of `patch` replace those of `target`, objects merge, null removes. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const result: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------------
// Event streams

/** The events of an event stream's text (the project's one reader), data JSON-parsed where it is JSON. */
export function parseEvents(text: string): StreamEvent[] {
  return parseNamedEventStream(text).events.map(({ event, data }) => ({ ...(event === undefined ? {} : { event }), data: parseData(data) }));
}

function parseData(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

/** The text of an event stream, as the reference writes it: each event's fields, then a blank line. */
export function formatEvents(events: StreamEvent[]): string {
  return events
    .map((e) => `${e.event === undefined ? '' : `event: ${e.event}\n`}data: ${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)}\n\n`)
    .join('');
}

/** An example's value as an answer's body: an event stream's text as its events. */
export function exampleBody(c: ExampleCase): unknown {
  return c.mediaType === 'text/event-stream' ? parseEvents(c.value as string) : c.value;
}

// ---------------------------------------------------------------------------------------------------------
// Comparing

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A base64 PNG (as in `b64_json`): compared by its size, since the examples show small plain pictures. */
export function pngSize(value: unknown): { width: number; height: number } | undefined {
  if (typeof value !== 'string' || !value.startsWith('iVBORw0KGgo')) return undefined;
  const bytes = Buffer.from(value.slice(0, 44), 'base64');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Every leaf (a value that is not an object or array) by its JSON pointer. */
function leaves(value: unknown, path = '', out = new Map<string, unknown>()): Map<string, unknown> {
  if (Array.isArray(value)) value.forEach((item, i) => leaves(item, `${path}/${i}`, out));
  else if (isObject(value)) for (const [key, item] of Object.entries(value)) leaves(item, `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, out);
  else out.set(path, value);
  return out;
}

/**
 * The places where two answers to the same request differ (ids, made at random): an example may hold any
 * value of the same type there. The two answers must have the same shape.
 */
export function volatilePaths(first: unknown, second: unknown): Set<string> {
  const a = leaves(first);
  const b = leaves(second);
  const keys = new Set([...a.keys(), ...b.keys()]);
  const changed = new Set<string>();
  for (const key of keys) {
    if (!a.has(key) || !b.has(key)) throw new Error(`Two answers to the same request differ in shape at ${key}`);
    if (!Object.is(a.get(key), b.get(key))) changed.add(key);
  }
  return changed;
}

const show = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
};

/**
 * Where an example disagrees with the reference's answer: the same shape, the same values except at the
 * volatile places, where the example renames the reference's values one for one (the same id everywhere
 * the reference repeats it), and PNGs of the same size. Empty when they agree.
 */
export function disagreements(example: unknown, answer: unknown, volatile: ReadonlySet<string>): string[] {
  const out: string[] = [];
  const renamed = new Map<unknown, unknown>();
  const renamedBack = new Map<unknown, unknown>();
  const walk = (e: unknown, a: unknown, path: string): void => {
    const at = path || '(root)';
    const size = pngSize(a);
    if (size) {
      const mine = pngSize(e);
      if (!mine || mine.width !== size.width || mine.height !== size.height) {
        out.push(`${at}: ${mine ? `a ${mine.width}x${mine.height} PNG` : show(e)}, the reference a ${size.width}x${size.height} PNG`);
      }
      return;
    }
    if (Array.isArray(a)) {
      if (!Array.isArray(e)) return void out.push(`${at}: ${show(e)}, the reference an array of ${a.length}`);
      if (e.length !== a.length) out.push(`${at}: ${e.length} items, the reference ${a.length}`);
      for (let i = 0; i < Math.min(e.length, a.length); i++) walk(e[i], a[i], `${path}/${i}`);
      return;
    }
    if (isObject(a)) {
      if (!isObject(e)) return void out.push(`${at}: ${show(e)}, the reference an object`);
      const missing = Object.keys(a).filter((k) => !(k in e));
      const extra = Object.keys(e).filter((k) => !(k in a));
      if (missing.length > 0) out.push(`${at}: lacks ${missing.join(', ')}, which the reference sends`);
      if (extra.length > 0) out.push(`${at}: has ${extra.join(', ')}, which the reference does not send`);
      for (const key of Object.keys(a)) if (key in e) walk(e[key], a[key], `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
      return;
    }
    if (volatile.has(path)) {
      if (typeof e !== typeof a) return void out.push(`${at}: ${show(e)}, the reference a ${typeof a} (different on each answer)`);
      if ((renamed.has(a) && renamed.get(a) !== e) || (renamedBack.has(e) && renamedBack.get(e) !== a)) {
        return void out.push(`${at}: ${show(e)} does not stand for ${show(a)} as it does elsewhere in the example`);
      }
      renamed.set(a, e);
      renamedBack.set(e, a);
      return;
    }
    if (!Object.is(e, a)) out.push(`${at}: ${show(e)}, the reference ${show(a)}`);
  };
  walk(example, answer, '');
  return out;
}

/**
 * The reference's answer as an example: its values, except at the volatile places, where the old example's
 * values are kept (one for one: an id the reference repeats stays one id), and PNGs, which `picture` makes.
 */
export async function asExample(
  answer: unknown,
  volatile: ReadonlySet<string>,
  old: unknown,
  picture: (width: number, height: number) => Promise<string>,
): Promise<unknown> {
  const previous = leaves(old);
  const renamed = new Map<unknown, unknown>();
  const used = new Set<unknown>();
  const walk = async (a: unknown, path: string): Promise<unknown> => {
    const size = pngSize(a);
    if (size) return picture(size.width, size.height);
    if (Array.isArray(a)) return Promise.all(a.map((item, i) => walk(item, `${path}/${i}`)));
    if (isObject(a)) {
      const result: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(a)) result[key] = await walk(item, `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
      return result;
    }
    if (!volatile.has(path)) return a;
    if (!renamed.has(a)) {
      const before = previous.get(path);
      const keep = typeof before === typeof a && !used.has(before) ? before : a;
      renamed.set(a, keep);
      used.add(keep);
    }
    return renamed.get(a);
  };
  return walk(answer, '');
}
