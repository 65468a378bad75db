/**
 * Validators for each operation's requests and responses, derived from the spec and compiled once.
 * The reference server validates requests with them; the conformance suite and the server's tests
 * validate responses with them.
 */
import type { ValidateFunction } from 'ajv';
import { compileInline, describeErrors, validatorAt } from './ajv.ts';
import { getOperation, operations, responseHeaders, type Operation } from './operations.ts';
import { canonicalPointer, deref, escapePointer, type ResponseObject } from './spec.ts';

export interface Verdict {
  ok: boolean;
  /** Why it is not valid, as a short sentence (empty when ok). */
  message: string;
  /** ajv's errors, for reports that show the schema path. */
  errors: Array<{ instancePath: string; schemaPath: string; message?: string }>;
}

function verdict(validate: ValidateFunction, value: unknown): Verdict {
  const ok = validate(value) as boolean;
  return {
    ok,
    message: ok ? '' : describeErrors(validate.errors),
    errors: ok ? [] : (validate.errors ?? []).map(({ instancePath, schemaPath, message }) => ({ instancePath, schemaPath, message })),
  };
}

/** Pointer of the JSON request body schema of an operation. */
export function requestBodyPointer(op: Operation, contentType = 'application/json'): string {
  return `${op.pointer}/requestBody/content/${escapePointer(contentType)}/schema`;
}

const bodyValidators = new Map<string, { pointer: string; validate: ValidateFunction }>();

/**
 * The validator of an operation's request body and the (canonical) pointer of its schema, looked up once
 * per operation and content type: resolving the pointer costs more than validating a small body.
 */
export function requestBodyValidator(operationId: string, contentType = 'application/json'): { pointer: string; validate: ValidateFunction } {
  const key = `${operationId} ${contentType}`;
  let entry = bodyValidators.get(key);
  if (!entry) {
    const pointer = canonicalPointer(requestBodyPointer(getOperation(operationId), contentType));
    entry = { pointer, validate: validatorAt(pointer) };
    bodyValidators.set(key, entry);
  }
  return entry;
}

/** Validates a request body against the operation's schema. */
export function validateRequestBody(operationId: string, body: unknown, contentType = 'application/json'): Verdict {
  return verdict(requestBodyValidator(operationId, contentType).validate, body);
}

/** Validates the query parameters (as strings, the way they arrive) against the declared parameters. */
export function validateQuery(operationId: string, query: Record<string, string | undefined>): Verdict {
  const op = getOperation(operationId);
  for (const param of op.parameters.filter((p) => p.in === 'query')) {
    const value = query[param.name];
    if (value === undefined) {
      if (param.required) return { ok: false, message: `query parameter '${param.name}' is required`, errors: [] };
      continue;
    }
    const result = verdict(compileInline(param.schema), value);
    if (!result.ok) return { ...result, message: `query parameter '${param.name}' ${result.message.replace(/^\(root\) /, '')}` };
  }
  return { ok: true, message: '', errors: [] };
}

/** The documented response for a status: the exact code, else its range (`4XX`), else `default`. */
export function documentedResponse(op: Operation, status: number): { key: string; response: ResponseObject } | undefined {
  for (const key of [String(status), `${String(status)[0]}XX`, 'default']) {
    const response = op.responses[key];
    if (response) return { key, response };
  }
  return undefined;
}

/**
 * Checks a response as the contract documents it: status, content type, body schema and required
 * headers. `body` is the parsed JSON for JSON media types and the raw text otherwise.
 */
export function validateResponse(
  operationId: string,
  res: { status: number; contentType: string | null; headers: Record<string, string | undefined>; body: unknown },
): Verdict {
  const op = getOperation(operationId);
  const documented = documentedResponse(op, res.status);
  if (!documented) return fail(`status ${res.status} is not documented for ${operationId}`);
  const mediaTypes = Object.keys(documented.response.content ?? {});
  const mediaType = (res.contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaTypes.length > 0) {
    if (!mediaTypes.includes(mediaType)) {
      return fail(`content type '${res.contentType ?? '(none)'}' is not documented for ${res.status} (expected ${mediaTypes.join(' or ')})`);
    }
    const pointer = `${op.pointer}/responses/${documented.key}/content/${escapePointer(mediaType)}/schema`;
    const result = verdict(validatorAt(canonicalPointer(pointer)), res.body);
    if (!result.ok) return { ...result, message: `body: ${result.message}` };
  }
  for (const [name, header] of Object.entries(responseHeaders(documented.response))) {
    const value = res.headers[name];
    if (value === undefined) {
      if (header.required) return fail(`required header '${name}' is missing`);
      continue;
    }
    const schema = header.schema;
    const typed = schema.type === 'integer' || schema.type === 'number' ? Number(value) : value;
    const result = verdict(compileInline(schema), typed);
    if (!result.ok) return { ...result, message: `header '${name}': ${result.message.replace(/^\(root\) /, '')}` };
  }
  return { ok: true, message: '', errors: [] };
}

function fail(message: string): Verdict {
  return { ok: false, message, errors: [] };
}

/** Every operation's request and response validators compiled now, so start-up pays and requests do not. */
export function precompile(): void {
  for (const op of operations) {
    for (const contentType of op.requestContentTypes) validatorAt(requestBodyPointer(op, contentType));
    for (const [key, response] of Object.entries(op.responses)) {
      for (const mediaType of Object.keys(deref<ResponseObject>(response).content ?? {})) {
        validatorAt(canonicalPointer(`${op.pointer}/responses/${key}/content/${escapePointer(mediaType)}/schema`));
      }
    }
  }
}
