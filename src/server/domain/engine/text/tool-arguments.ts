/**
 * Makes the arguments of a tool call: a value that validates against the function's `parameters` JSON
 * Schema, filled where possible with what the user asked for (a city named in the message for a `city`
 * property, an enum option the message mentions, a number it contains).
 */
import { FORMAT_EXAMPLES, mentioned, normaliseName, numberHint, stringHints } from './argument-hints.ts';
import { sampleFromPattern } from './pattern-sample.ts';
import type { Rng } from '../../../../lib/random.ts';
import { codePointLength, schemaCheck, type Schema, type SchemaCheck } from './schema-check.ts';
import { deref, flattenAllOf, isSchemaObject as isObj, type SchemaObject as Obj } from './schema-resolve.ts';
import { TextEngineError } from './errors.ts';
import { toolLimits } from './limits.ts';
import type { Subject } from './subject.ts';

export interface ArgumentContext {
  subject: Subject;
  rng: Rng;
  /** The function's name, for the message when its schema asks for too large a value. */
  tool?: string;
}

interface Site {
  /** The property name this value is for, lowercased; '' for array items and the root. */
  name: string;
  depth: number;
  /** Which of several sibling values this is (array items), so they can differ. */
  variant: number;
}

/** Deeper than this (a recursive `$ref`), a value is null rather than another level. */
const MAX_DEPTH = 12;

function inferType(schema: Obj): string {
  if (isObj(schema.properties) || Array.isArray(schema.required) || isObj(schema.additionalProperties)) return 'object';
  if (schema.items !== undefined || Array.isArray(schema.prefixItems) || schema.minItems !== undefined) return 'array';
  if (schema.minimum !== undefined || schema.maximum !== undefined || schema.multipleOf !== undefined) return 'number';
  if (schema.exclusiveMinimum !== undefined || schema.exclusiveMaximum !== undefined) return 'number';
  return 'string';
}

class ArgumentGenerator {
  private readonly conforms: SchemaCheck;
  /** Values and schemas left to make and resolve (the contract's `valueParts` limit, decision D22). */
  private budget = toolLimits.valueParts;
  private readonly spend = (): void => {
    if (--this.budget >= 0) return;
    throw new TextEngineError(
      `The parameters schema of tool '${this.context.tool ?? 'the tool'}' needs a value of more than ${toolLimits.valueParts.toLocaleString('en-US')} parts: a property or item that requires itself, or too many required values (decision D22).`,
    );
  };

  constructor(
    private readonly root: Schema,
    private readonly context: ArgumentContext,
  ) {
    this.conforms = schemaCheck(root);
  }

  value(raw: Schema, site: Site): unknown {
    this.spend();
    if (site.depth > MAX_DEPTH) return null;
    const schema = deref(raw, this.root, site.depth, this.spend);
    if (schema === true) return this.stringFor({}, site);
    if (schema === false) return null;
    if ('const' in schema) return schema.const;
    if (Array.isArray(schema.enum) && schema.enum.length > 0) return this.enumChoice(schema.enum, site);
    const branches = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : null;
    if (branches) return this.branchChoice(schema, branches as Schema[], site);
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [inferType(schema)];
    // A nullable field gets a real value: null is the answer of last resort.
    const ordered = [...types.filter((t) => t !== 'null'), ...types.filter((t) => t === 'null')];
    let first: unknown;
    for (const [index, type] of ordered.entries()) {
      const candidate = this.ofType(type, schema, site);
      if (index === 0) first = candidate;
      if (this.conforms(schema, candidate)) return candidate;
    }
    return first;
  }

  private branchChoice(schema: Obj, branches: Schema[], site: Site): unknown {
    const { oneOf: _one, anyOf: _any, ...parent } = schema;
    const attempts: unknown[] = [];
    for (let variant = 0; variant < 3; variant++) {
      for (const branch of branches) {
        const resolved = deref(branch, this.root, site.depth + 1, this.spend);
        const combined = isObj(resolved) ? flattenAllOf({ ...parent, ...resolved }, this.root, site.depth, this.spend) : resolved;
        // Each type of a type list is its own option: `null` may be what tells two branches apart.
        const options = isObj(combined) && Array.isArray(combined.type) ? combined.type.map((type) => ({ ...combined, type })) : [combined];
        for (const option of options) {
          const candidate = this.value(option, { ...site, depth: site.depth + 1, variant: site.variant + variant });
          if (this.conforms(schema, candidate)) return candidate;
          attempts.push(candidate);
        }
      }
    }
    return attempts[0];
  }

  private enumChoice(options: unknown[], site: Site): unknown {
    const text = this.context.subject.text;
    const spoken = options.find((option) => typeof option === 'string' && mentioned(text, option));
    if (spoken !== undefined) return spoken;
    return options[site.variant % options.length];
  }

  private ofType(type: string, schema: Obj, site: Site): unknown {
    switch (type) {
      case 'object':
        return this.objectFor(schema, site);
      case 'array':
        return this.arrayFor(schema, site);
      case 'integer':
        return this.numberFor(schema, site, true);
      case 'number':
        return this.numberFor(schema, site, false);
      case 'boolean':
        return !/(?:^|_)(?:no|disable|disabled|exclude|skip|dry_run)(?:$|_)/.test(site.name);
      case 'null':
        return null;
      default:
        return this.stringFor(schema, site);
    }
  }

  private objectFor(schema: Obj, site: Site): Obj {
    const properties = isObj(schema.properties) ? (schema.properties as Record<string, Schema>) : {};
    const required = new Set(Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === 'string') : []);
    const text = this.context.subject.text;
    const wanted = (key: string): boolean => {
      if (required.has(key)) return true;
      // An optional property is filled when the message talks about it, as a model would.
      const property = deref(properties[key] as Schema, this.root, site.depth + 1, this.spend);
      if (normaliseName(key).split('_').some((word) => word.length > 2 && mentioned(text, word))) return true;
      return isObj(property) && Array.isArray(property.enum) && property.enum.some((o) => typeof o === 'string' && mentioned(text, o));
    };
    const keys = Object.keys(properties).filter(wanted);
    for (const key of required) if (!keys.includes(key)) keys.push(key);
    const minimum = typeof schema.minProperties === 'number' ? schema.minProperties : 0;
    for (const key of Object.keys(properties)) if (keys.length < minimum && !keys.includes(key)) keys.push(key);
    if (keys.length === 0 && site.depth === 0 && Object.keys(properties)[0] !== undefined) keys.push(Object.keys(properties)[0] as string);
    this.addDependencies(schema, keys);

    const result: Obj = {};
    for (const key of keys) {
      // The caller's keys are names like any other: `constructor` is not Object's, and `__proto__` is defined as
      // a property (assigned, it would set the prototype and leave the key out of the arguments).
      const sub = Object.hasOwn(properties, key) ? properties[key]! : isObj(schema.additionalProperties) ? schema.additionalProperties : true;
      const value = this.value(sub, { name: normaliseName(key), depth: site.depth + 1, variant: site.variant });
      Object.defineProperty(result, key, { value, enumerable: true, writable: true, configurable: true });
    }
    for (let extra = 1; Object.keys(result).length < minimum && schema.additionalProperties !== false; extra++) {
      const sub = isObj(schema.additionalProperties) ? schema.additionalProperties : true;
      result[`extra_${extra}`] = this.value(sub, { name: '', depth: site.depth + 1, variant: extra });
    }
    const maximum = typeof schema.maxProperties === 'number' ? schema.maxProperties : Infinity;
    for (const key of Object.keys(result).reverse()) if (Object.keys(result).length > maximum && !required.has(key)) delete result[key];
    return result;
  }

  private addDependencies(schema: Obj, keys: string[]): void {
    const dependencies = isObj(schema.dependentRequired) ? schema.dependentRequired : isObj(schema.dependencies) ? schema.dependencies : {};
    for (let i = 0; i < keys.length; i++) {
      const needs = dependencies[keys[i] as string];
      if (Array.isArray(needs)) for (const need of needs) if (typeof need === 'string' && !keys.includes(need)) keys.push(need);
    }
  }

  private arrayFor(schema: Obj, site: Site): unknown[] {
    const prefix = (Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : []) as Schema[];
    const rest = (Array.isArray(schema.items) ? schema.additionalItems : schema.items) as Schema | undefined;
    const minItems = typeof schema.minItems === 'number' ? schema.minItems : 0;
    const maxItems = typeof schema.maxItems === 'number' ? schema.maxItems : Infinity;
    let count = Math.max(minItems, prefix.length, 1);
    if (rest === false) count = Math.min(count, prefix.length);
    count = Math.min(count, maxItems);
    // Each item is a different variant (another enum option, word, number or suffix), which is what
    // keeps `uniqueItems` arrays unique.
    const items: unknown[] = [];
    for (let i = 0; i < count; i++) {
      const itemSchema = i < prefix.length ? prefix[i] : (rest ?? true);
      items.push(this.value(itemSchema as Schema, { name: site.name, depth: site.depth + 1, variant: site.variant + i }));
    }
    return items;
  }

  private numberFor(schema: Obj, site: Site, integer: boolean): number {
    const preferred = numberHint(site.name, site.variant, integer, this.context.subject, this.context.rng);
    let low = -Infinity;
    let high = Infinity;
    let lowOpen = false;
    let highOpen = false;
    if (typeof schema.minimum === 'number') [low, lowOpen] = [schema.minimum, schema.exclusiveMinimum === true];
    if (typeof schema.maximum === 'number') [high, highOpen] = [schema.maximum, schema.exclusiveMaximum === true];
    if (typeof schema.exclusiveMinimum === 'number' && schema.exclusiveMinimum >= low) [low, lowOpen] = [schema.exclusiveMinimum, true];
    if (typeof schema.exclusiveMaximum === 'number' && schema.exclusiveMaximum <= high) [high, highOpen] = [schema.exclusiveMaximum, true];
    const inRange = (v: number): boolean => (lowOpen ? v > low : v >= low) && (highOpen ? v < high : v <= high);
    const step = typeof schema.multipleOf === 'number' && schema.multipleOf > 0 ? schema.multipleOf : integer ? 1 : 0;
    const fits = (v: number): boolean =>
      Number.isFinite(v) && inRange(v) && (!integer || Number.isInteger(v)) && (step === 0 || Number.isInteger(v / step));

    if (fits(preferred)) return preferred;
    const { variant } = site;
    if (step === 0) {
      // Plain numbers: a value inside the range (distinct per variant), or just past the bound it crossed.
      if (Number.isFinite(low) && Number.isFinite(high)) return low + (high - low) / (variant + 2);
      if (Number.isFinite(low) && preferred <= low) return low + variant + (lowOpen ? 1 : 0);
      if (Number.isFinite(high) && preferred >= high) return high - variant - (highOpen ? 1 : 0);
      return preferred;
    }
    // Multiples of the step, nearest to the preferred value first; the variant-th one, so siblings differ.
    const centre = Math.round(preferred / step);
    const first = Number.isFinite(low) ? Math.ceil(low / step) : -Infinity;
    const last = Number.isFinite(high) ? Math.floor(high / step) : Infinity;
    const start = Math.min(Math.max(centre, first), last);
    let found: number | undefined;
    let seen = 0;
    for (let offset = 0; offset < 200 && seen <= variant; offset++) {
      for (const k of offset === 0 ? [start] : [start + offset, start - offset]) {
        const rounded = Number((k * step).toPrecision(15));
        const candidate = fits(rounded) ? rounded : k * step;
        if (fits(candidate) && seen++ <= variant) found = candidate;
      }
    }
    return found ?? (fits(0) ? 0 : Number.isFinite(low) ? low : 0);
  }

  private stringFor(schema: Obj, site: Site): string {
    const candidates: string[] = [];
    const format = typeof schema.format === 'string' ? schema.format : '';
    if (format === 'uuid') candidates.push(this.uuid());
    else if (FORMAT_EXAMPLES.has(format)) candidates.push(FORMAT_EXAMPLES.get(format)!);
    candidates.push(...stringHints(site.name, site.variant, this.context.subject, this.context.rng));
    for (const example of [...(Array.isArray(schema.examples) ? schema.examples : []), schema.default]) {
      if (typeof example === 'string') candidates.push(example);
    }
    const base = candidates[0] ?? 'example';
    const adjusted = candidates.map((c) => this.fitLength(c, schema, site.variant));
    if (typeof schema.pattern === 'string') {
      const sample = sampleFromPattern(schema.pattern);
      if (sample !== undefined) adjusted.push(sample, this.fitLength(sample, schema, site.variant));
    }
    return adjusted.find((c) => this.conforms(schema, c)) ?? this.fitLength(base, schema, site.variant);
  }

  private fitLength(text: string, schema: Obj, variant: number): string {
    const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
    const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
    let out = text;
    if (codePointLength(out) < min) out = `${out} ${'x'.repeat(min)}`.trimStart();
    if (codePointLength(out) > max) {
      // A cut can make sibling values equal; their variant number keeps them apart.
      const suffix = variant > 0 ? String(variant).slice(-max) : '';
      out = [...out].slice(0, max - suffix.length).join('').trimEnd() + suffix;
    }
    while (codePointLength(out) < min) out += 'x';
    return out;
  }

  private uuid(): string {
    const hex = (this.context.rng.hex24() + this.context.rng.hex24()).slice(0, 32);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }
}

/**
 * A value for a function's `parameters` schema; `{}` when the function takes no parameters.
 *
 * @example
 * generateArguments({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
 *   { subject: analyseSubject('Weather in Paris?'), rng: new Rng(1) }); // { city: 'Paris' }
 */
export function generateArguments(parameters: unknown, context: ArgumentContext): unknown {
  if (parameters === undefined || parameters === null) return {};
  const root = parameters as Schema;
  if (typeof root !== 'boolean' && !isObj(root)) return {};
  return new ArgumentGenerator(root, context).value(root, { name: '', depth: 0, variant: 0 });
}

