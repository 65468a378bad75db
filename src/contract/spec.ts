/**
 * The bundled contract (`generated/openapi.json`), loaded once. Everything at run time that needs the
 * spec (validators, the reference server, the conformance suite) reads it from here.
 */
import { readFileSync } from 'node:fs';
import { packageFile } from '../package-root.ts';
import { followRefs, isRef, unescapePointer } from './refs.ts';

export { escapePointer } from './refs.ts';

/** The parts of an OpenAPI 3.1 document this project reads; the rest stays untyped on purpose. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, OperationObject>>;
  components: {
    schemas: Record<string, SchemaObject>;
    examples: Record<string, { summary?: string; value: unknown }>;
    responses: Record<string, ResponseObject>;
    headers: Record<string, HeaderObject>;
    parameters: Record<string, ParameterObject>;
    securitySchemes: Record<string, { type: string; in?: string; name?: string; scheme?: string }>;
  };
  security?: Array<Record<string, string[]>>;
  [key: string]: unknown;
}

export type SchemaObject = Record<string, unknown>;
export interface Ref {
  $ref: string;
}
export interface HeaderObject {
  description?: string;
  required?: boolean;
  schema: SchemaObject;
  'x-conformance'?: 'reference';
}
export interface ParameterObject {
  name: string;
  in: 'query' | 'header' | 'path' | 'cookie';
  required?: boolean;
  schema: SchemaObject;
}
export interface MediaTypeObject {
  schema: SchemaObject;
  examples?: Record<string, Ref | { summary?: string; value: unknown }>;
}
export interface ResponseObject {
  description: string;
  headers?: Record<string, Ref | HeaderObject>;
  content?: Record<string, MediaTypeObject>;
}
export interface OperationObject {
  operationId: string;
  summary: string;
  tags: string[];
  security?: Array<Record<string, string[]>>;
  parameters?: Array<Ref | ParameterObject>;
  requestBody?: { required?: boolean; content: Record<string, MediaTypeObject> };
  responses: Record<string, Ref | ResponseObject>;
}

export const specUrl = packageFile('generated/openapi.json');

/** The bundled spec, parsed. Treat as read-only: it is shared by every module. */
export const spec: OpenApiDocument = JSON.parse(readFileSync(specUrl, 'utf8'));

/** Follows a local `$ref` (`#/components/...`) to the object it names; other values are returned as they are. */
export function deref<T>(value: Ref | T): T {
  return followRefs<T>(spec, value);
}

/**
 * The same location with every `$ref` on the way followed, so that ajv (which does not follow a `$ref`
 * in the middle of a pointer) can compile it: `/paths/~1v1~1models/get/responses/401/content/...`
 * becomes `/components/responses/Unauthorized/content/...`.
 */
export function canonicalPointer(pointer: string): string {
  let resolved = '';
  let node: unknown = spec;
  for (const token of pointer.split('/').slice(1)) {
    node = (node as Record<string, unknown>)?.[unescapePointer(token)];
    resolved += `/${token}`;
    while (isRef(node)) {
      resolved = node.$ref.replace(/^#/, '');
      node = deref(node);
    }
  }
  return resolved;
}
