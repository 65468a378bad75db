/**
 * The wrong values the negative cases use: a value of another JSON type, and for each bound keyword of a
 * schema (minimum, maxLength, pattern, minItems…) a value just outside it.
 */
import type { SchemaObject } from '../contract/index.ts';
import { jsonType, typesOf } from './schema.ts';
import type { Rng } from '../lib/random.ts';

/** Values whose JSON type the schema does not allow. */
export function wrongTypeValues(types: string[]): unknown[] {
  const candidates: unknown[] = ['conformance', 12345, 1.5, true, ['conformance'], { conformance: true }];
  return candidates.filter((v) => {
    const t = jsonType(v);
    return !(types.includes(t) || (t === 'integer' && types.includes('number')));
  });
}

/** One value per bound keyword of the schema that lies just outside it, with the keyword and a description. */
export function boundBreakers(s: SchemaObject, current: unknown, rng: Rng): Array<[string, unknown, string]> {
  const out: Array<[string, unknown, string]> = [];
  const integer = typesOf(s).includes('integer') && !typesOf(s).includes('number');
  const step = integer ? 1 : 0.1;
  const num = (k: string) => (typeof s[k] === 'number' ? (s[k] as number) : undefined);
  const round = (x: number) => Math.round(x * 1000) / 1000;
  if (num('minimum') !== undefined) out.push(['minimum', round(num('minimum')! - step), `below its minimum ${num('minimum')}`]);
  if (num('maximum') !== undefined) out.push(['maximum', round(num('maximum')! + step), `above its maximum ${num('maximum')}`]);
  if (num('exclusiveMinimum') !== undefined) out.push(['exclusiveMinimum', num('exclusiveMinimum'), `equal to its exclusive minimum ${num('exclusiveMinimum')}`]);
  if (num('exclusiveMaximum') !== undefined) out.push(['exclusiveMaximum', num('exclusiveMaximum'), `equal to its exclusive maximum ${num('exclusiveMaximum')}`]);
  if (num('minLength')! > 0) out.push(['minLength', 'x'.repeat(num('minLength')! - 1), `shorter than ${num('minLength')} characters`]);
  if (num('maxLength') !== undefined) out.push(['maxLength', 'x'.repeat(num('maxLength')! + 1), `longer than ${num('maxLength')} characters`]);
  if (typeof s.pattern === 'string') {
    const regex = new RegExp(s.pattern as string, 'u');
    const misfits = ['conformance', 'x', '0', '-1', 'conformance x conformance'].filter((v) => !regex.test(v));
    if (misfits.length > 0) out.push(['pattern', rng.pick(misfits), `not matching ${s.pattern}`]);
  }
  if (Array.isArray(current) && current.length > 0) {
    if (num('minItems')! > 0) out.push(['minItems', current.slice(0, num('minItems')! - 1), `with fewer than ${num('minItems')} items`]);
    if (num('maxItems') !== undefined) {
      out.push(['maxItems', Array.from({ length: num('maxItems')! + 1 }, () => structuredClone(current[0])), `with more than ${num('maxItems')} items`]);
    }
  } else if (num('minItems')! > 0) {
    out.push(['minItems', [], `with fewer than ${num('minItems')} items`]);
  }
  return out;
}
