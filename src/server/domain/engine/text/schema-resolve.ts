/**
 * Schema plumbing for the argument generator: local `$ref`s followed (with the contract's resolver) and
 * `allOf` members merged, so the generator sees one plain schema at a time.
 */
import { resolveRef } from '../../../../contract/refs.ts';
import type { Schema } from './schema-check.ts';

export type SchemaObject = Record<string, unknown>;

export function isSchemaObject(value: unknown): value is SchemaObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'boolean' || isSchemaObject(value);
}

/** Called once for each schema resolved, so that the caller can bound the work (see tool-arguments.ts). */
export type Spend = () => void;

/**
 * Merges `allOf` members into one schema (properties and required united, the rest first-wins).
 *
 * @example
 * flattenAllOf({ allOf: [{ required: ['a'] }, { required: ['b'] }] }, {}, 0); // { required: ['a', 'b'] }
 */
export function flattenAllOf(schema: SchemaObject, root: Schema, depth: number, spend: Spend = () => {}): SchemaObject {
  if (!Array.isArray(schema.allOf)) return schema;
  const merged: SchemaObject = { ...schema };
  delete merged.allOf;
  for (const raw of schema.allOf) {
    spend();
    const member = deref(raw as Schema, root, depth + 1, spend);
    if (!isSchemaObject(member)) continue;
    const flat = flattenAllOf(member, root, depth + 1, spend);
    for (const [key, value] of Object.entries(flat)) {
      if (key === 'properties' && isSchemaObject(merged.properties) && isSchemaObject(value)) merged.properties = { ...merged.properties, ...value };
      else if (key === 'required' && Array.isArray(merged.required) && Array.isArray(value)) merged.required = [...new Set([...merged.required, ...value])];
      else if (!(key in merged) || key === 'type') merged[key] = value;
    }
  }
  return merged;
}

/**
 * Follows `$ref` chains (siblings of `$ref` are kept, as 2020-12 allows) and flattens `allOf`. A reference
 * that leads nowhere is left as it is.
 *
 * @example
 * deref({ $ref: '#/$defs/a' }, { $defs: { a: { type: 'string' } } }, 0); // { type: 'string' }
 */
export function deref(schema: Schema, root: Schema, depth: number, spend: Spend = () => {}): Schema {
  let current = schema;
  for (let hops = 0; isSchemaObject(current) && typeof current.$ref === 'string' && hops < 16; hops++) {
    const target = resolveRef(root, current.$ref);
    if (!isSchema(target)) break;
    const { $ref: _ref, ...siblings } = current;
    current = isSchemaObject(target) ? { ...target, ...siblings } : Object.keys(siblings).length === 0 ? target : siblings;
  }
  return isSchemaObject(current) ? flattenAllOf(current, root, depth, spend) : current;
}
