import { Ajv as AjvDraft7 } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/lib/random.ts';
import { analyseSubject } from '../../src/server/domain/engine/text/subject.ts';
import { generateArguments } from '../../src/server/domain/engine/text/tool-arguments.ts';

const ajv = new Ajv2020({ strict: false, allErrors: true });
// ajv-formats is CommonJS: its plugin is the default export under Node and `.default` under bundlers.
const addFormats = ((formats as unknown as { default?: unknown }).default ?? formats) as unknown as (a: Ajv2020) => void;
addFormats(ajv);

function generate(schema: unknown, message = 'Please help', seed = 1): unknown {
  return generateArguments(schema, { subject: analyseSubject(message), rng: new Rng(seed) });
}

function expectValid(schema: object, message?: string): unknown {
  const value = generate(schema, message);
  const validate = ajv.compile(schema);
  if (!validate(value)) throw new Error(`${JSON.stringify(value)} fails ${JSON.stringify(schema)}: ${ajv.errorsText(validate.errors)}`);
  return value;
}

const SCHEMAS: Record<string, object> = {
  empty: { type: 'object' },
  'no type': { properties: { a: { type: 'integer' } }, required: ['a'] },
  closed: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false },
  strings: {
    type: 'object',
    required: ['short', 'long', 'exact', 'constant', 'choice'],
    properties: {
      short: { type: 'string', maxLength: 2 },
      long: { type: 'string', minLength: 40 },
      exact: { type: 'string', minLength: 7, maxLength: 7 },
      constant: { const: 'fixed' },
      choice: { enum: ['x', 'y', 3, null] },
    },
  },
  formats: {
    type: 'object',
    required: ['d', 'dt', 't', 'e', 'u', 'id', 'h', 'ip4', 'ip6', 'dur'],
    properties: {
      d: { type: 'string', format: 'date' },
      dt: { type: 'string', format: 'date-time' },
      t: { type: 'string', format: 'time' },
      e: { type: 'string', format: 'email' },
      u: { type: 'string', format: 'uri' },
      id: { type: 'string', format: 'uuid' },
      h: { type: 'string', format: 'hostname' },
      ip4: { type: 'string', format: 'ipv4' },
      ip6: { type: 'string', format: 'ipv6' },
      dur: { type: 'string', format: 'duration' },
    },
  },
  // Formats that name a property of every object are unknown formats like any other.
  'object property formats': {
    type: 'object',
    required: ['a', 'b', 'c'],
    properties: { a: { type: 'string', format: 'toString' }, b: { type: 'string', format: 'constructor' }, c: { type: 'string', format: '__proto__' } },
  },
  patterns: {
    type: 'object',
    required: ['code', 'date', 'phone', 'slug', 'alt', 'hex'],
    properties: {
      code: { type: 'string', pattern: '^[A-Z]{3}$' },
      date: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
      phone: { type: 'string', pattern: '^\\+?[0-9]{7,15}$' },
      slug: { type: 'string', pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' },
      alt: { type: 'string', pattern: '^(?:red|green|blue)$' },
      hex: { type: 'string', pattern: '^#[0-9a-fA-F]{6}$' },
    },
  },
  numbers: {
    type: 'object',
    required: ['i', 'n', 'exclusive', 'step', 'cents', 'tight', 'negative', 'bigStep'],
    properties: {
      i: { type: 'integer', minimum: 100, maximum: 200 },
      n: { type: 'number', minimum: 0.5, maximum: 0.75 },
      exclusive: { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 2 },
      step: { type: 'integer', multipleOf: 7, minimum: 10 },
      cents: { type: 'number', multipleOf: 0.01, minimum: 0.3, maximum: 0.31 },
      tight: { type: 'number', exclusiveMinimum: 1, exclusiveMaximum: 1.5 },
      negative: { type: 'integer', maximum: -50 },
      bigStep: { type: 'number', multipleOf: 0.25, minimum: 1000.1 },
    },
  },
  booleansAndNull: {
    type: 'object',
    required: ['flag', 'nothing', 'maybe'],
    properties: { flag: { type: 'boolean' }, nothing: { type: 'null' }, maybe: { type: ['string', 'null'], maxLength: 3 } },
  },
  arrays: {
    type: 'object',
    required: ['tags', 'many', 'tuple', 'unique', 'none', 'uniqueInts', 'uniqueNumbers', 'uniqueStrings'],
    properties: {
      tags: { type: 'array', items: { type: 'string' } },
      many: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 3 }, minItems: 4, maxItems: 4 },
      tuple: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false },
      unique: { type: 'array', items: { enum: ['a', 'b', 'c'] }, minItems: 3, uniqueItems: true },
      none: { type: 'array', maxItems: 0 },
      uniqueInts: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 3 }, minItems: 4, uniqueItems: true },
      uniqueNumbers: { type: 'array', items: { type: 'number', minimum: 1, maximum: 2 }, minItems: 3, uniqueItems: true },
      uniqueStrings: { type: 'array', items: { type: 'string', maxLength: 1 }, minItems: 3, uniqueItems: true },
    },
  },
  nested: {
    type: 'object',
    required: ['user'],
    properties: {
      user: {
        type: 'object',
        required: ['name', 'address', 'roles'],
        properties: {
          name: { type: 'string', minLength: 1 },
          address: { type: 'object', required: ['city', 'zip'], properties: { city: { type: 'string' }, zip: { type: 'string', pattern: '^\\d{5}$' } } },
          roles: { type: 'array', minItems: 2, uniqueItems: true, items: { type: 'object', required: ['role'], properties: { role: { type: 'string' } } } },
        },
      },
    },
  },
  combinators: {
    type: 'object',
    required: ['any', 'one', 'overlap', 'all', 'typeList'],
    properties: {
      any: { anyOf: [{ type: 'integer', minimum: 5 }, { type: 'string' }] },
      one: { oneOf: [{ type: 'string', maxLength: 2 }, { type: 'string', minLength: 3 }] },
      overlap: { oneOf: [{ type: 'number' }, { type: 'integer' }] },
      all: { allOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { required: ['b'], properties: { b: { type: 'integer' } } }] },
      typeList: { type: ['integer', 'string'], minimum: 3 },
    },
  },
  refs: {
    type: 'object',
    $defs: {
      node: { type: 'object', required: ['value'], properties: { value: { type: 'integer' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } } },
      colour: { enum: ['red', 'green'] },
    },
    required: ['tree', 'colour'],
    properties: { tree: { $ref: '#/$defs/node' }, colour: { $ref: '#/$defs/colour' } },
  },
  dependencies: {
    type: 'object',
    properties: { card: { type: 'string' }, billing: { type: 'string' } },
    required: ['card'],
    dependentRequired: { card: ['billing'] },
  },
  minProperties: { type: 'object', minProperties: 3, properties: { a: { type: 'string' } } },
  mapOnly: { type: 'object', additionalProperties: { type: 'integer' }, minProperties: 2 },
  anyRoot: { anyOf: [{ type: 'object', required: ['x'], properties: { x: { type: 'boolean' } } }] },
};

describe('generated arguments', () => {
  for (const [name, schema] of Object.entries(SCHEMAS)) {
    it(`validate with ajv: ${name}`, () => {
      expectValid(schema);
    });
  }

  it('name properties after anything, even what every object has (`constructor`, `__proto__`)', () => {
    // Parsed, as a request's schema is: a literal `__proto__:` would set the literal's prototype instead.
    const schema = JSON.parse('{"type":"object","required":["__proto__","constructor"],"properties":{"__proto__":{"type":"string","minLength":3}}}') as object;
    const value = expectValid(schema) as Record<string, unknown>;
    expect(Object.hasOwn(value, '__proto__') && Object.hasOwn(value, 'constructor')).toBe(true);
    expect(Object.keys(JSON.parse(JSON.stringify(value)) as object).sort()).toEqual(['__proto__', 'constructor']);
    expect(typeof value['__proto__']).toBe('string');
  });

  it('are {} without parameters', () => {
    expect(generate(undefined)).toEqual({});
    expect(generate({ type: 'object', properties: {} })).toEqual({});
  });

  it('take hinted values from the user message', () => {
    const schema = {
      type: 'object',
      required: ['city', 'query', 'count', 'unit'],
      properties: {
        city: { type: 'string' },
        query: { type: 'string' },
        count: { type: 'integer', minimum: 1, maximum: 20 },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        country: { type: 'string' },
        days: { type: 'integer' },
      },
    };
    const value = expectValid(schema, 'Find 7 hotels in Lisbon for the weekend in fahrenheit') as Record<string, unknown>;
    expect(value).toMatchObject({ city: 'Lisbon', count: 7, unit: 'fahrenheit' });
    expect(value.query).toMatch(/hotels in Lisbon/);
    expect(value).not.toHaveProperty('country');
    const withDays = expectValid(schema, 'Weather in Rome for the next 3 days?') as Record<string, unknown>;
    expect(withDays).toMatchObject({ city: 'Rome', days: 3, count: 3 });
  });

  it('respect bounds when the message holds an out-of-range number', () => {
    const value = expectValid({ type: 'object', required: ['n'], properties: { n: { type: 'integer', minimum: 1, maximum: 10 } } }, 'Give me 500') as {
      n: number;
    };
    expect(value.n).toBeLessThanOrEqual(10);
  });

  it('honour draft-4 boolean exclusive bounds', () => {
    const value = generate({ type: 'object', required: ['n'], properties: { n: { type: 'number', minimum: 5, exclusiveMinimum: true, maximum: 6, exclusiveMaximum: true } } }) as {
      n: number;
    };
    expect(value.n).toBeGreaterThan(5);
    expect(value.n).toBeLessThan(6);
  });

  it('tell oneOf branches apart by type, including null', () => {
    expectValid({ type: 'object', required: ['v'], properties: { v: { oneOf: [{ type: ['null', 'integer'] }, { type: 'integer' }] } } });
  });

  it('follow draft-07 schemas, which JSON Schema 2020-12 refuses: tuples and dependencies', () => {
    const draft7 = new AjvDraft7({ strict: false });
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      required: ['pair', 'choice', 'either'],
      properties: {
        pair: { type: 'array', items: [{ type: 'string', enum: ['north', 'south'] }, { type: 'integer', minimum: 3 }], additionalItems: false },
        choice: { oneOf: [{ type: 'string', maxLength: 1 }, { type: 'integer' }] },
        // A closed tuple of one item cannot have two: only a draft-07 check sends the generator to the string.
        either: { anyOf: [{ type: 'array', items: [{ type: 'integer' }], additionalItems: false, minItems: 2 }, { type: 'string' }] },
      },
      dependencies: { pair: ['choice'] },
    };
    const value = generate(schema);
    expect(draft7.validate(schema, value), JSON.stringify(value)).toBe(true);
  });

  it('still answer when no draft accepts the schema (a draft-04 bound beside a pattern JavaScript cannot read)', () => {
    const schema = { type: 'object', required: ['n', 'code'], properties: { n: { type: 'number', minimum: 1, exclusiveMinimum: true }, code: { type: 'string', pattern: '(?<' } } };
    const value = generate(schema) as { n: number; code: string };
    expect(value.n).toBeGreaterThan(1);
    expect(typeof value.code).toBe('string');
  });

  it('hold for many random schemas', () => {
    const rng = new Rng(Number(process.env.FUZZ_SEED ?? 2024));
    for (let i = 0; i < Number(process.env.FUZZ_COUNT ?? 300); i++) {
      const schema = randomSchema(rng, 0);
      const wrapped = { type: 'object', required: ['v'], properties: { v: schema } };
      const value = generate(wrapped, 'Book a table for 4 in Paris on 2025-06-01', i);
      const validate = ajv.compile(wrapped);
      if (!validate(value)) throw new Error(`#${i} ${JSON.stringify(value)} fails ${JSON.stringify(wrapped)}: ${ajv.errorsText(validate.errors)}`);
    }
  });
});

/** A satisfiable random schema, built so that every bound it sets can be met. */
function randomSchema(rng: Rng, depth: number): object {
  const kinds = depth > 2 ? ['string', 'integer', 'number', 'boolean', 'enum'] : ['string', 'integer', 'number', 'boolean', 'enum', 'object', 'array', 'anyOf', 'nullable'];
  const kind = rng.pick(kinds);
  switch (kind) {
    case 'string': {
      const min = rng.int(0, 12);
      const schema: Record<string, unknown> = { type: 'string', minLength: min };
      if (rng.chance(0.5)) schema.maxLength = min + rng.int(0, 6);
      if (rng.chance(0.3)) schema.format = rng.pick(['date', 'email', 'uri', 'uuid', 'date-time']);
      if (schema.format) delete schema.minLength, delete schema.maxLength;
      return schema;
    }
    case 'integer':
    case 'number': {
      const schema: Record<string, unknown> = { type: kind };
      const low = rng.int(-1000, 1000) / (kind === 'number' ? 10 : 1);
      const step = rng.chance(0.4) ? (kind === 'integer' ? rng.int(1, 5) : rng.pick([0.5, 0.25, 0.1, 2, 0.01])) : undefined;
      // Wide enough that an open range still holds a multiple of the step.
      const width = Math.max(rng.int(3, 500), 3 * (step ?? 1));
      if (rng.chance(0.6)) schema[rng.chance(0.5) ? 'minimum' : 'exclusiveMinimum'] = low;
      if (rng.chance(0.6)) schema[rng.chance(0.5) ? 'maximum' : 'exclusiveMaximum'] = low + width;
      if (step !== undefined) schema.multipleOf = step;
      return schema;
    }
    case 'boolean':
      return { type: 'boolean' };
    case 'enum':
      return { enum: [rng.pick(['alpha', 'beta', 'gamma']), rng.int(0, 9), rng.chance(0.5) ? null : 'delta'] };
    case 'nullable':
      return { type: ['null', rng.pick(['string', 'integer', 'boolean'])] };
    case 'anyOf':
      // oneOf branches of different types, so that exactly one can match.
      return rng.chance(0.5)
        ? { anyOf: [randomSchema(rng, depth + 1), randomSchema(rng, depth + 1)] }
        : { oneOf: [{ type: 'string', maxLength: rng.int(0, 5) }, { type: 'integer', minimum: rng.int(-5, 5) }, { type: 'null' }].slice(rng.int(0, 1)) };
    case 'array': {
      const min = rng.int(0, 3);
      const schema: Record<string, unknown> = { type: 'array', items: randomSchema(rng, depth + 1), minItems: min };
      if (rng.chance(0.5)) schema.maxItems = min + rng.int(0, 2);
      return schema;
    }
    default: {
      const properties: Record<string, object> = {};
      const count = rng.int(0, 4);
      for (let p = 0; p < count; p++) properties[rng.pick(['city', 'name', 'query', 'count', 'date', 'x', 'limit', 'id'])+p] = randomSchema(rng, depth + 1);
      const keys = Object.keys(properties);
      return { type: 'object', properties, required: keys.filter(() => rng.chance(0.6)), additionalProperties: rng.chance(0.5) ? false : undefined };
    }
  }
}
