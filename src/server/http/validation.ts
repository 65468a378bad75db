/**
 * Request validation in Fastify's validation stage, with the contract's own validators (compiled once, at
 * start-up, in src/contract and shared with the conformance suite). A failure is an invalid_request error
 * that the one error handler answers: `Invalid request body: <what and where>.`, `Invalid query: …`, or the
 * exact message a schema names for a missing property with `x-required-messages` (the specification's
 * `Image is required for editing.`).
 */
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';
import { describeErrors, type Contract, type Operation, type SchemaObject } from '../../contract/index.ts';
import { invalidRequest } from '../domain/errors.ts';

type Part = 'body' | 'querystring' | 'params';
type Check = (data: unknown) => true | { error: Error };

/**
 * The parts of a request an operation declares, for the route's `schema`: Fastify validates only the parts
 * named there, each with the validator `contractValidators` gives (the objects themselves are placeholders).
 */
export function validatedParts(op: Operation): FastifySchema {
  const schema: FastifySchema = {};
  if (op.requestContentTypes.includes('application/json')) schema.body = {};
  if (op.parameters.some((p) => p.in === 'query')) schema.querystring = {};
  if (op.parameters.some((p) => p.in === 'path')) schema.params = {};
  return schema;
}

/**
 * The route's validator compiler: Fastify asks it once per part at start-up, and it answers the contract's
 * validator for that part of that operation.
 */
export function contractValidators(contract: Contract, op: Operation): FastifySchemaCompiler<unknown> {
  return ({ httpPart }) => {
    switch (httpPart as Part) {
      case 'body':
        return bodyCheck(contract, op);
      case 'querystring':
        return (query) => parameters(contract, op, 'query', query, 'Invalid query');
      case 'params':
        return (params) => parameters(contract, op, 'path', params, 'Invalid path');
      default:
        throw new Error(`${op.operationId}: nothing validates the request's ${httpPart}`);
    }
  };
}

function parameters(contract: Contract, op: Operation, location: 'query' | 'path', values: unknown, label: string): true | { error: Error } {
  const verdict = contract.validateParameters(op.operationId, location, (values ?? {}) as Record<string, string | undefined>);
  return verdict.ok ? true : { error: invalidRequest(`${label}: ${verdict.message}.`) };
}

function bodyCheck(contract: Contract, op: Operation): Check {
  const { pointer, validate } = contract.requestBodyValidator(op.operationId);
  const requiredMessages = (contract.deref<SchemaObject>({ $ref: `#${pointer}` })['x-required-messages'] ?? {}) as Record<string, string>;
  return (body) => {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      return { error: invalidRequest('Invalid request body: a JSON object is required.') };
    }
    if (validate(body)) return true;
    const errors = validate.errors ?? [];
    for (const error of errors) {
      if (error.keyword !== 'required' || error.instancePath !== '') continue;
      const message = requiredMessages[(error.params as { missingProperty: string }).missingProperty];
      if (message) return { error: invalidRequest(message) };
    }
    return { error: invalidRequest(`Invalid request body: ${describeErrors(errors)}.`) };
  };
}
