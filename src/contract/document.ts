/**
 * An OpenAPI 3.1 description as this project reads it: the types of the parts it uses, and loading a bundled
 * one (`generated/openapi.json`, `generated/admin/openapi.json`) from the package.
 */
import { readFileSync } from 'node:fs';

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
    securitySchemes: Record<string, SecuritySchemeObject>;
  };
  security?: Array<Record<string, string[]>>;
  [key: string]: unknown;
}

export type SchemaObject = Record<string, unknown>;
export interface Ref {
  $ref: string;
}
export interface SecuritySchemeObject {
  type: string;
  in?: string;
  name?: string;
  scheme?: string;
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
export interface LinkObject {
  operationId: string;
  /** Runtime expressions by parameter name, e.g. `$response.body#/id`. */
  parameters?: Record<string, string>;
  description?: string;
}
export interface ResponseObject {
  description: string;
  headers?: Record<string, Ref | HeaderObject>;
  content?: Record<string, MediaTypeObject>;
  links?: Record<string, LinkObject>;
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

/** Reads a bundled description. */
export function readDocument(url: URL): OpenApiDocument {
  return JSON.parse(readFileSync(url, 'utf8')) as OpenApiDocument;
}
