/**
 * The operations of a description, read from its `paths`: what the server routes, the client calls and the
 * conformance suite checks. Adding an operation to openapi/ adds it here with no code change.
 */
import type { HeaderObject, OpenApiDocument, OperationObject, ParameterObject, ResponseObject } from './document.ts';
import { escapePointer, followRefs } from './refs.ts';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface Operation {
  operationId: string;
  method: HttpMethod;
  path: string;
  summary: string;
  tag: string;
  /** JSON pointer of the operation object in the bundled spec, e.g. `/paths/~1v1~1models/get`. */
  pointer: string;
  /** Security alternatives: each is a list of scheme names that must all be present; `[]` means none. */
  security: string[][];
  parameters: ParameterObject[];
  /** Content types of the request body, when there is one. */
  requestContentTypes: string[];
  requestBodyRequired: boolean;
  /** By status key (`200`, `4XX`, `default`), with `$ref`s followed. */
  responses: Record<string, ResponseObject>;
  raw: OperationObject;
}

const methods: HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete'];

/** Every operation of a description, in the order of its paths. */
export function readOperations(document: OpenApiDocument): Operation[] {
  const list: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of methods) {
      const op = item[method];
      if (!op) continue;
      list.push({
        operationId: op.operationId,
        method,
        path,
        summary: op.summary,
        tag: op.tags[0] ?? 'default',
        pointer: `/paths/${escapePointer(path)}/${method}`,
        security: (op.security ?? document.security ?? []).map((alternative) => Object.keys(alternative)),
        parameters: (op.parameters ?? []).map((p) => followRefs<ParameterObject>(document, p)),
        requestContentTypes: Object.keys(op.requestBody?.content ?? {}),
        requestBodyRequired: op.requestBody?.required ?? false,
        responses: Object.fromEntries(Object.entries(op.responses).map(([status, r]) => [status, followRefs<ResponseObject>(document, r)])),
        raw: op,
      });
    }
  }
  return list;
}

/** Whether an operation accepts a given security scheme (by its name in `components.securitySchemes`). */
export function acceptsScheme(op: Operation, scheme: string): boolean {
  return op.security.some((alternative) => alternative.includes(scheme));
}

/**
 * The endpoint a model must list in its `endpoints` to be used by this operation: the operation's own path,
 * unless its description names another with `x-model-endpoint` (counting a message's tokens takes the models
 * of `/v1/messages`).
 */
export function modelEndpoint(op: Operation): string {
  const named = (op.raw as { 'x-model-endpoint'?: unknown })['x-model-endpoint'];
  return typeof named === 'string' ? named : op.path;
}

/** Whether an operation can be called with no credentials at all. */
export function isPublic(op: Operation): boolean {
  return op.security.length === 0 || op.security.some((alternative) => alternative.length === 0);
}

/** The documented response for a status: the exact code, else its range (`4XX`), else `default`. */
export function documentedResponse(op: Operation, status: number): { key: string; response: ResponseObject } | undefined {
  for (const key of [String(status), `${String(status)[0]}XX`, 'default']) {
    const response = op.responses[key];
    if (response) return { key, response };
  }
  return undefined;
}

/** The headers a response declares, by lower-case name, `$ref`s followed. */
export function responseHeaders(document: OpenApiDocument, response: ResponseObject): Record<string, HeaderObject> {
  return Object.fromEntries(
    Object.entries(response.headers ?? {}).map(([name, h]) => [name.toLowerCase(), followRefs<HeaderObject>(document, h)]),
  );
}
