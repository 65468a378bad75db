/**
 * Valid requests for an operation, built from the contract's own request examples. The examples name the
 * reference catalogue's models; a model the implementation does not have (or the key may not use) is
 * swapped for one from its own listing that offers the endpoint.
 */
import { modelEndpoint, type Contract, type Operation, type ParameterObject, type Tier } from '../contract/index.ts';
import type { RunContext } from './check.ts';
import type { OutgoingRequest } from './http.ts';
import { propertySchema } from './schema.ts';

export interface RequestExample {
  name: string;
  query: Record<string, string>;
  /** The JSON body, or undefined for operations without one. */
  body?: Record<string, unknown>;
}

/** The query parameter and body field that name a model. */
const MODEL_FIELD = 'model';

/**
 * One entry per request-body example of the operation (or one without a body when it takes none).
 * @example
 * requestExamples(contract, contract.getOperation('createImage'))[0];
 * // { name: 'ImageGenerationRequestExample', query: { model: 'image-gen' }, body: { prompt: '…', size: '512x512', n: 1 } }
 */
export function requestExamples(contract: Contract, op: Operation): RequestExample[] {
  const query = requiredQuery(op);
  const media = op.raw.requestBody?.content['application/json'];
  if (!media) return op.requestBodyRequired ? [] : [{ name: 'no body', query }];
  return Object.entries(media.examples ?? {}).map(([name, ex]) => ({
    name,
    query: { ...query },
    body: structuredClone(contract.deref<{ value: unknown }>(ex).value as Record<string, unknown>),
  }));
}

/** The first example, or undefined when the contract has none for this operation. */
export function firstExample(contract: Contract, op: Operation): RequestExample | undefined {
  return requestExamples(contract, op)[0];
}

function requiredQuery(op: Operation): Record<string, string> {
  const query: Record<string, string> = {};
  for (const p of op.parameters) {
    if (p.in !== 'query' || !p.required) continue;
    const value = parameterValues(p)[0];
    if (value !== undefined) query[p.name] = value;
  }
  return query;
}

/** The values a parameter's description gives (its `example`, `examples`, the schema's `examples`, or its `default`). */
export function parameterValues(p: ParameterObject): string[] {
  const raw = p as unknown as { example?: unknown; examples?: Record<string, { value: unknown }> };
  const schema = p.schema as { examples?: unknown[]; default?: unknown };
  const values = [
    ...(raw.example === undefined ? [] : [raw.example]),
    ...Object.values(raw.examples ?? {}).map((e) => e.value),
    ...(schema.examples ?? []),
    ...(schema.default === undefined ? [] : [schema.default]),
  ];
  return [...new Set(values.map(String))];
}

/**
 * The header parameters a client sends, with their first value (`anthropic-version: 2023-06-01`): those the
 * description requires, and those it gives a value for, as real clients send them.
 */
export function clientHeaders(op: Operation): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const p of op.parameters) {
    const value = p.in === 'header' ? parameterValues(p)[0] : undefined;
    if (value !== undefined) headers[p.name.toLowerCase()] = value;
  }
  return headers;
}

/** Whether the operation names a model, in its query or its body. */
export function takesModel(contract: Contract, op: Operation): 'query' | 'body' | undefined {
  const body = op.raw.requestBody?.content['application/json']?.schema;
  // The prompt endpoint accepts both; the body is where its examples put it.
  if (body && propertySchema(contract, body, MODEL_FIELD)) return 'body';
  return op.parameters.some((p) => p.in === 'query' && p.name === MODEL_FIELD) ? 'query' : undefined;
}

export interface BuildOptions {
  key?: string;
  /** The key's tier; undefined for a key given without one (models are then fitted without a tier). */
  tier?: Tier;
  headers?: Record<string, string>;
}

/**
 * The request for an example, sent with `key` the way the operation takes it, the header parameters a client
 * sends, and its models fitted to the catalogue and the key's tier.
 * @example
 * buildRequest(ctx, op, example, { key: 'sk-demo-pro', tier: 'pro' });
 */
export function buildRequest(ctx: RunContext, op: Operation, example: RequestExample, options: BuildOptions = {}): OutgoingRequest {
  const query = { ...example.query };
  const body = example.body === undefined ? undefined : structuredClone(example.body);
  const fit = (id: unknown) => ctx.catalogue.pick(modelEndpoint(op), options.tier, typeof id === 'string' ? id : undefined)?.id ?? id;
  if (typeof query[MODEL_FIELD] === 'string') query[MODEL_FIELD] = String(fit(query[MODEL_FIELD]));
  if (body && typeof body[MODEL_FIELD] === 'string') body[MODEL_FIELD] = fit(body[MODEL_FIELD]);
  return {
    method: op.method,
    path: op.path,
    query,
    headers: { ...clientHeaders(op), ...ctx.credentials.headers(options.key, op), ...(options.headers ?? {}) },
    ...(body === undefined ? {} : { json: body }),
  };
}

/** The same request naming another model, wherever the operation takes it. */
export function withModel(contract: Contract, op: Operation, req: OutgoingRequest, model: string): OutgoingRequest {
  const where = takesModel(contract, op);
  if (where === 'query') return { ...req, query: { ...req.query, [MODEL_FIELD]: model } };
  if (where === 'body') {
    const query = { ...req.query };
    delete query[MODEL_FIELD];
    return { ...req, query, json: { ...(req.json as object), [MODEL_FIELD]: model } };
  }
  return req;
}
