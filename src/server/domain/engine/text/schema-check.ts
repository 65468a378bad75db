/**
 * Whether a value satisfies a caller's JSON Schema (a function's `parameters`), judged by ajv: the tool-call
 * generator asks it to choose between `anyOf`/`oneOf` branches and type alternatives.
 *
 * Callers write their schemas in JSON Schema 2020-12 (Claude Code declares it) or in the draft-07 forms
 * OpenAI's examples use (tuple `items`, `dependencies`), which 2020-12 refuses: a schema is compiled as
 * 2020-12 first, as draft-07 when that fails, and when neither accepts it (a draft-04 boolean bound, a regular
 * expression JavaScript cannot read) nothing is checked and the generator keeps its first candidate, rather
 * than refusing a request over a schema it only uses for guidance.
 *
 * Each root schema is added to ajv once under an id of its own, and each schema checked against it is
 * compiled once, with its local `$ref`s pointed at that id. ajv keeps what it compiled for good, so after
 * `MAX_COMPILED` schemas both ajv instances are replaced by fresh ones: memory stays bounded however many
 * different tools callers send.
 */
import { Ajv as AjvDraft7, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { canonicalJson } from '../../../../lib/canonical-json.ts';
import { hashString } from '../../../../lib/random.ts';
import { withFormats } from '../../../../contract/ajv.ts';
import { linearRegExp } from './linear-regexp.ts';

export type Schema = boolean | Record<string, unknown>;

/** Compiled schemas kept before ajv is started afresh. */
const MAX_COMPILED = 2000;

// Callers' patterns are matched in linear time (see linear-regexp.ts), never by the backtracking engine.
const options = { strict: false, logger: false, allErrors: false, code: { regExp: linearRegExp } } as const;
let drafts: Array<Ajv2020 | AjvDraft7> = [];
let compiled = new Map<string, ValidateFunction | null>();
let roots = new Set<string>();

function startAfresh(): void {
  drafts = [withFormats(new Ajv2020(options)), withFormats(new AjvDraft7(options))];
  compiled = new Map();
  roots = new Set();
}
startAfresh();

/** Counts code points, as JSON Schema's minLength/maxLength do. */
export function codePointLength(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** A copy of `schema` whose local `$ref`s (`#…`) point into the root added under `id`. */
function anchored(schema: unknown, id: string): unknown {
  if (Array.isArray(schema)) return schema.map((item) => anchored(item, id));
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#')) out[key] = `${id}${value}`;
    else if (key === '$id' || key === '$schema') continue;
    else out[key] = anchored(value, id);
  }
  return out;
}

/** The validator of `schema` inside the root added under `id`, or null when no draft accepts them. */
function validatorFor(schema: Schema, root: Schema, id: string): ValidateFunction | null {
  if (compiled.size >= MAX_COMPILED) startAfresh();
  const key = `${id} ${canonicalJson(schema)}`;
  let validate = compiled.get(key);
  if (validate !== undefined) return validate;
  validate = null;
  for (const [index, ajv] of drafts.entries()) {
    try {
      if (!roots.has(`${index}${id}`)) {
        roots.add(`${index}${id}`);
        if (typeof root === 'object') ajv.addSchema({ ...(anchored(root, id) as object), $id: id });
      }
      validate = ajv.compile(typeof schema === 'boolean' ? schema : (anchored(schema, id) as object));
      break;
    } catch {
      // Not a schema of this draft: try the next.
    }
  }
  compiled.set(key, validate);
  return validate;
}

/** Whether a value satisfies a schema that is part of (or derived from) one root schema. */
export type SchemaCheck = (schema: Schema, value: unknown) => boolean;

/**
 * The check of values against parts of a caller's `root` schema, whose `$ref`s are relative to that root.
 *
 * @example
 * const conforms = schemaCheck(parameters);
 * conforms({ type: 'integer', minimum: 1 }, 0); // false
 */
export function schemaCheck(root: Schema): SchemaCheck {
  const id = `tool-${hashString(canonicalJson(root)).toString(36)}`;
  return (schema, value) => {
    const validate = validatorFor(schema, root, id);
    if (validate === null) return true;
    try {
      return validate(value) as boolean;
    } catch {
      // A schema ajv compiled but cannot apply to this value (a recursion without end): no verdict.
      return true;
    }
  };
}
