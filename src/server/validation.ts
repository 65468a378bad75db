/**
 * Request validation with the contract's own validators (compiled once, at start-up). A schema may name
 * the exact message for a missing property with `x-required-messages` (the specification's
 * `Image is required for editing.`); every other problem becomes `Invalid request body: <what and where>.`
 */
import type { ErrorObject } from 'ajv';
import { deref, describeErrors, requestBodyValidator, validateQuery, type SchemaObject } from '../contract/index.ts';
import type { Faults } from './faults.ts';
import { HttpError } from './http-error.ts';

export interface RequestValidator {
  body<T>(operationId: string, body: unknown): T;
  query(operationId: string, query: Record<string, string | undefined>): void;
}

export function createRequestValidator(faults: Faults): RequestValidator {
  return {
    body<T>(operationId: string, body: unknown): T {
      const { pointer, validate } = requestBodyValidator(operationId);
      if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
        throw new HttpError(400, 'Invalid request body: a JSON object is required.');
      }
      if (validate(body)) return body as T;
      let errors = validate.errors ?? [];
      if (faults.has('temperature-unchecked')) errors = errors.filter((e) => !e.instancePath.startsWith('/temperature'));
      if (errors.length === 0) return body as T;
      const special = requiredMessage(deref<SchemaObject>({ $ref: `#${pointer}` }), errors, faults);
      throw new HttpError(400, special ?? `Invalid request body: ${describeErrors(errors)}.`);
    },
    query(operationId, query) {
      const verdict = validateQuery(operationId, query);
      if (!verdict.ok) throw new HttpError(400, `Invalid query: ${verdict.message}.`);
    },
  };
}

function requiredMessage(schema: SchemaObject, errors: ErrorObject[], faults: Faults): string | undefined {
  const messages = schema['x-required-messages'] as Record<string, string> | undefined;
  if (!messages) return undefined;
  for (const error of errors) {
    if (error.keyword !== 'required' || error.instancePath !== '') continue;
    const message = messages[(error.params as { missingProperty: string }).missingProperty];
    if (message) return faults.has('image-required-message') ? 'An image is required.' : message;
  }
  return undefined;
}
