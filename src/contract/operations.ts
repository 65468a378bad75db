/**
 * The operations of the contract, read from the spec: what the server routes, the client calls and the
 * conformance suite checks. Adding an operation to openapi/ adds it here with no code change.
 */
import {
  deref,
  escapePointer,
  spec,
  type HeaderObject,
  type OperationObject,
  type ParameterObject,
  type ResponseObject,
} from './spec.ts';

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
  responses: Record<string, ResponseObject>;
  raw: OperationObject;
}

const methods: HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete'];

function readOperations(): Operation[] {
  const list: Operation[] = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of methods) {
      const op = item[method];
      if (!op) continue;
      const security = (op.security ?? spec.security ?? []).map((alt) => Object.keys(alt));
      const responses = Object.fromEntries(
        Object.entries(op.responses).map(([status, response]) => [status, deref<ResponseObject>(response)]),
      );
      list.push({
        operationId: op.operationId,
        method,
        path,
        summary: op.summary,
        tag: op.tags[0] ?? 'default',
        pointer: `/paths/${escapePointer(path)}/${method}`,
        security,
        parameters: (op.parameters ?? []).map((p) => deref<ParameterObject>(p)),
        requestContentTypes: Object.keys(op.requestBody?.content ?? {}),
        requestBodyRequired: op.requestBody?.required ?? false,
        responses,
        raw: op,
      });
    }
  }
  return list;
}

export const operations: readonly Operation[] = readOperations();

const byId = new Map(operations.map((op) => [op.operationId, op]));

export function getOperation(operationId: string): Operation {
  const op = byId.get(operationId);
  if (!op) throw new Error(`No operation ${operationId} in the contract`);
  return op;
}

/** The headers a response declares, with `$ref`s followed. */
export function responseHeaders(response: ResponseObject): Record<string, HeaderObject> {
  return Object.fromEntries(
    Object.entries(response.headers ?? {}).map(([name, h]) => [name.toLowerCase(), deref<HeaderObject>(h)]),
  );
}

/** Whether an operation accepts a given security scheme (by its name in `components.securitySchemes`). */
export function acceptsScheme(op: Operation, scheme: string): boolean {
  return op.security.some((alt) => alt.includes(scheme));
}

/** Whether an operation can be called with no credentials at all. */
export function isPublic(op: Operation): boolean {
  return op.security.length === 0 || op.security.some((alt) => alt.length === 0);
}
