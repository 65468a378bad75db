/**
 * One OpenAPI description, loaded and ready to use: its operations, its `$ref`s followed, and validators
 * for each operation's requests and responses, compiled once with the project's ajv. The public contract
 * (`contract`, in index.ts) and the reference server's admin API are two of these.
 */
import type { ValidateFunction } from 'ajv';
import { addDocument, compileInline, describeErrors, validatorAt } from './ajv.ts';
import { withDiscriminators } from './discriminators.ts';
import { readDocument, type HeaderObject, type OpenApiDocument, type ParameterObject, type ResponseObject } from './document.ts';
import { documentedResponse, readOperations, responseHeaders, type Operation } from './operations.ts';
import { readProtocol, ruleAt, type Protocol } from './protocol.ts';
import { escapePointer, followRefs, isRef, resolveSchema, unescapePointer } from './refs.ts';

export interface Verdict {
  ok: boolean;
  /** Why it is not valid, as a short sentence (empty when ok). */
  message: string;
  /** ajv's errors, for reports that show the schema path. */
  errors: Array<{ instancePath: string; schemaPath: string; message?: string }>;
}

const valid: Verdict = { ok: true, message: '', errors: [] };

function fail(message: string): Verdict {
  return { ok: false, message, errors: [] };
}

function verdict(validate: ValidateFunction, value: unknown): Verdict {
  if (validate(value)) return valid;
  const errors = validate.errors ?? [];
  return {
    ok: false,
    message: describeErrors(errors),
    errors: errors.map(({ instancePath, schemaPath, message }) => ({ instancePath, schemaPath, message })),
  };
}

export class Contract {
  readonly spec: OpenApiDocument;
  readonly operations: readonly Operation[];
  /** What the description says of itself for the conformance suite (`x-protocol`); the admin API has none. */
  readonly protocol: Protocol | undefined;
  readonly #byId: Map<string, Operation>;
  readonly #bodyValidators = new Map<string, { pointer: string; validate: ValidateFunction }>();

  /**
   * @param id names the description inside ajv (schema paths in reports start with it).
   * @param spec the document at `url`, when it is already read.
   * @example
   * const admin = new Contract('admin', packageFile('generated/admin/openapi.json'));
   */
  constructor(
    readonly id: string,
    readonly url: URL,
    spec: OpenApiDocument = readDocument(url),
  ) {
    this.spec = spec;
    this.operations = readOperations(this.spec);
    this.protocol = readProtocol(this.spec);
    this.#byId = new Map(this.operations.map((op) => [op.operationId, op]));
    // Tagged unions are validated by their tag (see discriminators.ts): the same verdicts, far faster.
    addDocument(id, withDiscriminators(this.spec).document);
  }

  getOperation(operationId: string): Operation {
    const op = this.#byId.get(operationId);
    if (!op) throw new Error(`No operation ${operationId} in ${this.id}`);
    return op;
  }

  /** The rule (`x-rule`) a place of this description states, or that of the nearest place above it. */
  ruleAt(pointer: string): string | undefined {
    return ruleAt(this.spec, pointer);
  }

  /** Follows a local `$ref` (`#/components/...`) to what it names; other values are returned as they are. */
  deref<T>(value: unknown): T {
    return followRefs<T>(this.spec, value);
  }

  /** A schema with its `$ref` chain followed, keywords beside each `$ref` kept. */
  resolveSchema(schema: unknown): Record<string, unknown> {
    return (resolveSchema(this.spec, schema ?? {}) ?? {}) as Record<string, unknown>;
  }

  /** The headers a response declares, by lower-case name. */
  responseHeaders(response: ResponseObject): Record<string, HeaderObject> {
    return responseHeaders(this.spec, response);
  }

  /**
   * The same location with every `$ref` on the way followed, so that ajv (which does not follow a `$ref`
   * in the middle of a pointer) can compile it: `/paths/~1v1~1models/get/responses/401/content/...`
   * becomes `/components/responses/Unauthorized/content/...`.
   */
  canonicalPointer(pointer: string): string {
    let resolved = '';
    let node: unknown = this.spec;
    for (const token of pointer.split('/').slice(1)) {
      node = (node as Record<string, unknown>)?.[unescapePointer(token)];
      resolved += `/${token}`;
      while (isRef(node)) {
        resolved = node.$ref.replace(/^#/, '');
        node = this.deref(node);
      }
    }
    return resolved;
  }

  /** The validator of the schema at a JSON pointer of this description (compiled once, then cached). */
  validatorAt(pointer: string): ValidateFunction {
    return validatorAt(this.id, this.canonicalPointer(pointer));
  }

  /** The validator of a named component schema, e.g. `contract.schemaValidator('ChatCompletionChunk')`. */
  schemaValidator(name: string): ValidateFunction {
    if (!this.spec.components.schemas[name]) throw new Error(`No schema ${name} in ${this.id}`);
    return validatorAt(this.id, `/components/schemas/${name}`);
  }

  /** A validator for a schema that is not a place in this description (a parameter's or header's inline schema). */
  inlineValidator(schema: object): ValidateFunction {
    return compileInline(schema);
  }

  /** Pointer of an operation's request body schema. */
  requestBodyPointer(op: Operation, contentType = 'application/json'): string {
    return `${op.pointer}/requestBody/content/${escapePointer(contentType)}/schema`;
  }

  /**
   * The validator of an operation's request body and the (canonical) pointer of its schema, looked up once
   * per operation and content type: resolving the pointer costs more than validating a small body.
   */
  requestBodyValidator(operationId: string, contentType = 'application/json'): { pointer: string; validate: ValidateFunction } {
    const key = `${operationId} ${contentType}`;
    let entry = this.#bodyValidators.get(key);
    if (!entry) {
      const pointer = this.canonicalPointer(this.requestBodyPointer(this.getOperation(operationId), contentType));
      entry = { pointer, validate: validatorAt(this.id, pointer) };
      this.#bodyValidators.set(key, entry);
    }
    return entry;
  }

  validateRequestBody(operationId: string, body: unknown, contentType = 'application/json'): Verdict {
    return verdict(this.requestBodyValidator(operationId, contentType).validate, body);
  }

  /**
   * Validates query or path parameters (as strings, the way they arrive) against the declared ones.
   *
   * @example
   * contract.validateParameters('createImage', 'query', { model: 'image-gen' }).ok; // true
   */
  validateParameters(operationId: string, location: ParameterObject['in'], values: Record<string, string | undefined>): Verdict {
    for (const param of this.getOperation(operationId).parameters.filter((p) => p.in === location)) {
      const value = values[param.name];
      if (value === undefined) {
        if (param.required) return fail(`${location} parameter '${param.name}' is required`);
        continue;
      }
      const result = verdict(compileInline(param.schema), value);
      if (!result.ok) return { ...result, message: `${location} parameter '${param.name}' ${result.message.replace(/^\(root\) /, '')}` };
    }
    return valid;
  }

  /**
   * Checks a response as the description documents it: status, content type, body schema and required
   * headers. `body` is the parsed JSON for JSON media types and the raw text otherwise.
   */
  validateResponse(
    operationId: string,
    res: { status: number; contentType: string | null; headers: Record<string, string | undefined>; body: unknown },
  ): Verdict {
    const op = this.getOperation(operationId);
    const documented = documentedResponse(op, res.status);
    if (!documented) return fail(`status ${res.status} is not documented for ${operationId}`);
    const mediaTypes = Object.keys(documented.response.content ?? {});
    const mediaType = (res.contentType ?? '').split(';')[0]!.trim().toLowerCase();
    if (mediaTypes.length > 0) {
      if (!mediaTypes.includes(mediaType)) {
        return fail(`content type '${res.contentType ?? '(none)'}' is not documented for ${res.status} (expected ${mediaTypes.join(' or ')})`);
      }
      const result = verdict(this.validatorAt(`${op.pointer}/responses/${documented.key}/content/${escapePointer(mediaType)}/schema`), res.body);
      if (!result.ok) return { ...result, message: `body: ${result.message}` };
    }
    for (const [name, header] of Object.entries(this.responseHeaders(documented.response))) {
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
    return valid;
  }

  /**
   * Every operation's request validators compiled now, so start-up pays and requests do not. The answers'
   * validators are compiled when first asked for: a server never checks its own answers, and a check of
   * answers (the suite, a test) compiles only those of the operations it calls.
   */
  precompileRequests(): void {
    for (const op of this.operations) {
      for (const contentType of op.requestContentTypes) this.requestBodyValidator(op.operationId, contentType);
    }
  }
}
