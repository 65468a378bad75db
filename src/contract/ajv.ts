/**
 * The project's ajv (JSON Schema 2020-12, with ajv-formats). Each description is added to it whole, under its
 * own id, so any schema in it can be compiled by its JSON pointer and `$ref`s resolve exactly as they do in
 * the description.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import type { Ajv as AjvCore } from 'ajv';
import formats from 'ajv-formats';

/** An ajv with the contract's options and formats, and no schema yet. */
export function newAjv(): Ajv2020 {
  // strict: false because the schema root is an OpenAPI document (keys such as `paths` and `info` are
  // not JSON Schema keywords); the schemas themselves are linted by Redocly.
  return withFormats(new Ajv2020({ strict: false, allErrors: true, discriminator: true }));
}

/**
 * Adds the formats of ajv-formats (`date-time`, `email`, `uri`, …) to an ajv of any draft.
 *
 * @example
 * const draft7 = withFormats(new Ajv({ strict: false }));
 */
export function withFormats<A extends Ajv2020 | AjvCore>(ajv: A): A {
  // ajv-formats is CommonJS: its plugin is the default export under Node and `.default` under bundlers.
  const addFormats = (formats as unknown as { default?: typeof formats }).default ?? formats;
  (addFormats as unknown as (a: A) => void)(ajv);
  return ajv;
}

const ajv = newAjv();
const compiled = new Map<string, ValidateFunction>();

/** Adds a whole description under `id`, so that `validatorAt(id, pointer)` can compile its schemas. */
export function addDocument(id: string, document: object): void {
  ajv.addSchema({ ...document, $id: id });
}

/** The validator of the schema at a JSON pointer of a description added under `id` (compiled once). */
export function validatorAt(id: string, pointer: string): ValidateFunction {
  const key = `${id}#${pointer}`;
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile({ $ref: key });
    compiled.set(key, validate);
  }
  return validate;
}

/** A validator for a schema object that is not part of a description (a parameter's or header's inline schema). */
export function compileInline(schema: object): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(key, validate);
  }
  return validate;
}

/** A short sentence per ajv error: `/temperature must be <= 2`. The first few only. */
export function describeErrors(errors: ErrorObject[] | null | undefined, limit = 3): string {
  if (!errors || errors.length === 0) return 'invalid';
  const useful = preferSpecific(errors);
  const parts = useful.slice(0, limit).map((e) => {
    const where = e.instancePath || '(root)';
    if (e.keyword === 'unevaluatedProperties' || e.keyword === 'additionalProperties') {
      const prop = e.params as { unevaluatedProperty?: string; additionalProperty?: string };
      return `${where} has unknown property '${prop.unevaluatedProperty ?? prop.additionalProperty}'`;
    }
    if (e.keyword === 'enum') {
      return `${where} must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    }
    return `${where} ${e.message}`;
  });
  return [...new Set(parts)].join('; ');
}

/**
 * ajv reports every failing branch of a oneOf/anyOf; a person needs the deepest, most specific ones.
 * Keep errors whose path is longest, and drop the generic "must match a schema in oneOf" when others exist.
 */
function preferSpecific(errors: ErrorObject[]): ErrorObject[] {
  const specific = errors.filter((e) => !['oneOf', 'anyOf', 'if', 'discriminator'].includes(e.keyword));
  const pool = specific.length > 0 ? specific : errors;
  const deepest = Math.max(...pool.map((e) => e.instancePath.split('/').length));
  return [...pool.filter((e) => e.instancePath.split('/').length === deepest), ...pool];
}
