/**
 * A small JSON Schema checker for the keywords the argument generator understands. The generator uses it
 * to choose between `anyOf`/`oneOf` branches and type alternatives; it is not a general validator (ajv is
 * what the tests hold the generator to), so unknown keywords and formats are accepted.
 */
import { canonicalJson } from './random.ts';

export type Schema = boolean | Record<string, unknown>;

/** Counts code points, as JSON Schema's minLength/maxLength do. */
export function codePointLength(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/**
 * Resolves a local `$ref` ("#", "#/$defs/x", "#/definitions/x") against the root schema.
 *
 * @example
 * resolveRef({ $defs: { a: { type: 'string' } } }, '#/$defs/a'); // { type: 'string' }
 */
export function resolveRef(root: Schema, ref: string): Schema | undefined {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return typeof node === 'boolean' || (node !== null && typeof node === 'object') ? (node as Schema) : undefined;
}

export function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function hasType(value: unknown, type: unknown): boolean {
  switch (type) {
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    default:
      return typeOf(value) === type;
  }
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}

function checkNumber(schema: Record<string, unknown>, value: number): boolean {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = schema;
  if (num(minimum) !== undefined && (value < (minimum as number) || (exclusiveMinimum === true && value === minimum))) return false;
  if (num(maximum) !== undefined && (value > (maximum as number) || (exclusiveMaximum === true && value === maximum))) return false;
  if (num(exclusiveMinimum) !== undefined && value <= (exclusiveMinimum as number)) return false;
  if (num(exclusiveMaximum) !== undefined && value >= (exclusiveMaximum as number)) return false;
  // The same test as ajv's: the quotient must be an integer.
  if (num(multipleOf) !== undefined && multipleOf !== 0 && !Number.isInteger(value / (multipleOf as number))) return false;
  return true;
}

function checkString(schema: Record<string, unknown>, value: string): boolean {
  const length = codePointLength(value);
  if (num(schema.minLength) !== undefined && length < (schema.minLength as number)) return false;
  if (num(schema.maxLength) !== undefined && length > (schema.maxLength as number)) return false;
  if (typeof schema.pattern === 'string') {
    try {
      if (!new RegExp(schema.pattern, 'u').test(value)) return false;
    } catch {
      return true;
    }
  }
  return true;
}

function checkArray(schema: Record<string, unknown>, value: unknown[], root: Schema, depth: number): boolean {
  if (num(schema.minItems) !== undefined && value.length < (schema.minItems as number)) return false;
  if (num(schema.maxItems) !== undefined && value.length > (schema.maxItems as number)) return false;
  const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : [];
  const rest = Array.isArray(schema.items) ? schema.additionalItems : schema.items;
  for (let i = 0; i < value.length; i++) {
    const itemSchema = i < prefix.length ? prefix[i] : rest;
    if (itemSchema !== undefined && !conforms(itemSchema as Schema, value[i], root, depth + 1)) return false;
  }
  if (schema.uniqueItems === true && new Set(value.map(canonicalJson)).size !== value.length) return false;
  return true;
}

function checkObject(schema: Record<string, unknown>, value: Record<string, unknown>, root: Schema, depth: number): boolean {
  const keys = Object.keys(value);
  if (num(schema.minProperties) !== undefined && keys.length < (schema.minProperties as number)) return false;
  if (num(schema.maxProperties) !== undefined && keys.length > (schema.maxProperties as number)) return false;
  if (Array.isArray(schema.required) && schema.required.some((key) => typeof key === 'string' && !(key in value))) return false;
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const patterns = Object.entries((schema.patternProperties ?? {}) as Record<string, Schema>);
  for (const key of keys) {
    let matched = false;
    if (Object.hasOwn(properties, key)) {
      matched = true;
      if (!conforms(properties[key] as Schema, value[key], root, depth + 1)) return false;
    }
    for (const [pattern, sub] of patterns) {
      let hit = false;
      try {
        hit = new RegExp(pattern, 'u').test(key);
      } catch {
        hit = false;
      }
      if (hit) {
        matched = true;
        if (!conforms(sub, value[key], root, depth + 1)) return false;
      }
    }
    if (!matched && schema.additionalProperties !== undefined) {
      if (!conforms(schema.additionalProperties as Schema, value[key], root, depth + 1)) return false;
    }
  }
  return true;
}

/**
 * Whether a value satisfies a schema, for the keywords listed in this module's comment.
 *
 * @example
 * conforms({ type: 'integer', minimum: 1 }, 0); // false
 */
export function conforms(schema: Schema, value: unknown, root: Schema = schema, depth = 0): boolean {
  if (schema === true) return true;
  if (schema === false) return false;
  if (depth > 32) return true;
  if (typeof schema.$ref === 'string') {
    const target = resolveRef(root, schema.$ref);
    if (target !== undefined && !conforms(target, value, root, depth + 1)) return false;
  }
  if ('const' in schema && canonicalJson(schema.const) !== canonicalJson(value)) return false;
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => canonicalJson(option) === canonicalJson(value))) return false;
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((type) => hasType(value, type))) return false;
  }
  if (typeof value === 'number' && !checkNumber(schema, value)) return false;
  if (typeof value === 'string' && !checkString(schema, value)) return false;
  if (Array.isArray(value) && !checkArray(schema, value, root, depth)) return false;
  if (typeOf(value) === 'object' && !checkObject(schema, value as Record<string, unknown>, root, depth)) return false;
  if (Array.isArray(schema.allOf) && !schema.allOf.every((sub) => conforms(sub as Schema, value, root, depth + 1))) return false;
  if (Array.isArray(schema.anyOf) && !schema.anyOf.some((sub) => conforms(sub as Schema, value, root, depth + 1))) return false;
  if (Array.isArray(schema.oneOf) && schema.oneOf.filter((sub) => conforms(sub as Schema, value, root, depth + 1)).length !== 1) {
    return false;
  }
  if (schema.not !== undefined && conforms(schema.not as Schema, value, root, depth + 1)) return false;
  return true;
}
