/**
 * Reading the contract's schemas: following `$ref`s (the contract's resolver), finding a property's schema, and telling whether
 * a schema belongs to a reference decision (`x-conformance: reference`).
 */
import type { Contract, SchemaObject } from '../contract/index.ts';

/** The schema with every top-level `$ref` followed (keywords beside the `$ref` are merged in). */
export function resolve(contract: Contract, schema: unknown): SchemaObject {
  return contract.resolveSchema(schema);
}

/** The resolved schema of a property of an object schema, or undefined when it declares none. */
export function propertySchema(contract: Contract, schema: unknown, name: string): SchemaObject | undefined {
  const resolved = resolve(contract, schema);
  const props = resolved.properties as Record<string, unknown> | undefined;
  if (props?.[name] !== undefined) return resolve(contract, props[name]);
  // A schema that extends another (`allOf: [{$ref: …}]`, as a vendor's request extends the shared one).
  for (const member of (resolved.allOf ?? []) as unknown[]) {
    const found = propertySchema(contract, member, name);
    if (found) return found;
  }
  return undefined;
}

/** Whether the schema (or the one its `$ref` names) is marked as belonging to a reference decision. */
export function isReferenceSchema(contract: Contract, schema: unknown): boolean {
  let node = (schema ?? {}) as SchemaObject;
  for (;;) {
    if (node['x-conformance'] === 'reference') return true;
    if (typeof node.$ref !== 'string') return false;
    node = contract.deref<SchemaObject>({ $ref: node.$ref });
  }
}

/** The JSON types a schema allows (`type` as a string or a list); empty when it does not say. */
export function typesOf(schema: SchemaObject): string[] {
  const t = schema.type;
  if (typeof t === 'string') return [t];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === 'string');
  if ('const' in schema) return [jsonType(schema.const)];
  if (Array.isArray(schema.enum)) return [...new Set(schema.enum.map(jsonType))];
  return [];
}

/** The JSON type of a value as JSON Schema names it (`integer` for whole numbers). */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/**
 * A readable location for an ajv error: the schema's place in the spec plus ajv's path inside it,
 * e.g. `#/components/schemas/ChatCompletion/properties/created/type`.
 */
export function schemaLocation(schemaPointer: string, ajvSchemaPath: string): string {
  const hash = ajvSchemaPath.indexOf('#');
  const inner = hash >= 0 ? ajvSchemaPath.slice(hash + 1) : ajvSchemaPath;
  // ajv gives paths inside a `$ref`'d schema from the description's root (`gateway#/components/...`, or
  // `#/components/...`).
  if (/^\w+#/.test(ajvSchemaPath) || /^\/(components|paths)\//.test(inner)) return `#${inner}`;
  return `#${schemaPointer}${inner}`;
}
