/**
 * Requests and expected answers read from the contract, so that the mock tests follow the spec when it
 * grows: an operation's example request, its credentials, and the named examples of each response.
 */
import { contract, type MediaTypeObject, type Operation, type ParameterObject, type ResponseObject } from '../../src/contract/index.ts';

export interface SpecRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** The value of a named example, `$ref` or inline. */
function exampleValue(example: unknown): unknown {
  return contract.deref<{ value: unknown }>(example as { value: unknown }).value;
}

/** Named examples of a media type, in the spec's order, as `[name, value]`. */
export function namedExamples(media: MediaTypeObject | undefined): Array<[string, unknown]> {
  return Object.entries(media?.examples ?? {}).map(([name, example]) => [name, exampleValue(example)]);
}

/** Credentials for the operation's first security alternative; Prism checks their presence, not their value. */
export function credentials(op: Operation): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of op.security[0] ?? []) {
    const scheme = contract.spec.components.securitySchemes[name]!;
    if (scheme.type === 'http' && scheme.scheme === 'bearer') headers.authorization = 'Bearer sk-mock';
    else if (scheme.type === 'apiKey' && scheme.in === 'header') headers[scheme.name!.toLowerCase()] = 'sk-mock';
    else if (scheme.type === 'apiKey' && scheme.in === 'cookie') headers.cookie = `${scheme.name}=mock`;
    else throw new Error(`No test credentials for the security scheme ${name}`);
  }
  return headers;
}

function parameterExample(param: ParameterObject): string {
  const { example } = param as ParameterObject & { example?: unknown };
  const value = example ?? (param.schema.examples as unknown[] | undefined)?.[0] ?? param.schema.example;
  if (value === undefined) throw new Error(`Parameter ${param.name} has no example to send`);
  return String(value);
}

/**
 * The request a reader of the docs would send first: the first request example, the required parameters'
 * examples and credentials.
 */
export function exampleRequest(op: Operation, extraHeaders: Record<string, string> = {}): SpecRequest {
  let path = op.path;
  const query = new URLSearchParams();
  for (const param of op.parameters) {
    if (param.in === 'path') path = path.replace(`{${param.name}}`, encodeURIComponent(parameterExample(param)));
    if (param.in === 'query' && param.required) query.set(param.name, parameterExample(param));
  }
  const headers = { ...credentials(op), ...extraHeaders };
  const media = op.raw.requestBody?.content['application/json'];
  const first = namedExamples(media)[0];
  let body: string | undefined;
  if (first) {
    body = JSON.stringify(first[1]);
    headers['content-type'] = 'application/json';
  }
  const search = query.size > 0 ? `?${query}` : '';
  return { method: op.method.toUpperCase(), path: `${path}${search}`, headers, body };
}

/** The status Prism answers when nothing is asked for: the lowest 2xx. */
export function successStatus(op: Operation): string {
  const status = Object.keys(op.responses)
    .filter((s) => /^2\d\d$/.test(s))
    .sort()[0];
  if (!status) throw new Error(`${op.operationId} documents no 2xx answer`);
  return status;
}

/** Every named example of every documented answer, as `{status, mediaType, name, value}`. */
export function responseExamples(op: Operation): Array<{ status: string; mediaType: string; name: string; value: unknown }> {
  return Object.entries(op.responses).flatMap(([status, response]) =>
    Object.entries(contract.deref<ResponseObject>(response).content ?? {}).flatMap(([mediaType, media]) =>
      namedExamples(media).map(([name, value]) => ({ status, mediaType, name, value })),
    ),
  );
}

/** The body a response's example stands for: JSON parsed, anything else as text. */
export async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  return /json/i.test(type) && text !== '' ? JSON.parse(text) : text;
}
