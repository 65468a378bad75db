/**
 * Invalid requests generated from an operation's request schema: a required field removed, a type
 * changed, a bound crossed, an enum or const broken, a pattern broken, an unknown property where the body
 * is closed. Each case starts from a valid body, changes one thing, and is kept only if ajv (the contract's
 * own validator) agrees it is now invalid. The seed picks the wrong values, so a failure reproduces.
 */
import type { Contract, Operation, SchemaObject } from '../contract/index.ts';
import { boundBreakers, wrongTypeValues } from './negative-values.ts';
import { hashString, Rng } from '../lib/random.ts';
import { isReferenceSchema, jsonType, resolve, typesOf } from './schema.ts';

export interface NegativeCase {
  /** Short, stable slug: `required-messages`, `bound-temperature-maximum`. */
  slug: string;
  /** What was changed, for a person. */
  title: string;
  body?: unknown;
  query: Record<string, string>;
  /** The schema keyword the case breaks, as a JSON pointer into the spec. */
  rule: string;
  /** The case breaks a reference decision (a closed body, D18, or a schema marked reference). */
  reference: boolean;
  /** The exact error message the contract fixes for this case (`x-required-messages`), when it does. */
  message?: string;
}

type Path = Array<string | number>;

interface Draft {
  slug: string;
  title: string;
  rule: string;
  reference: boolean;
  message?: string;
  apply: (body: Record<string, unknown>) => void;
}

/** What the walk reads the schemas with. */
interface Walk {
  contract: Contract;
  /** The description has reference decisions (the gateway's): a closed body is one (D18). Elsewhere what it marks `x-conformance: reference` is not its rule at all. */
  decisions: boolean;
  rng: Rng;
  out: Draft[];
}

/** A property name no schema of the contract uses. */
export const UNKNOWN_PROPERTY = 'conformance_unknown_property';

/**
 * The invalid variants of a valid request, each confirmed invalid by ajv.
 * @example
 * negativeCases(contract, contract.getOperation('createImage'), { query: { model: 'image-gen' }, body: { prompt: 'a cat' } }, 1)
 *   .map((c) => c.slug); // ['required-prompt', 'type-prompt', 'bound-prompt-minLength', …, 'query-required-model']
 */
export function negativeCases(
  contract: Contract,
  op: Operation,
  base: { body?: unknown; query: Record<string, string> },
  seed: number,
  decisions = contract.protocol?.decisions ?? true,
): NegativeCase[] {
  // Each operation's cases come from the run's seed and its own id, so they do not shift when another's change.
  const rng = new Rng(hashString(op.operationId, seed));
  const cases: NegativeCase[] = [];
  const seen = new Set<string>();
  const media = op.raw.requestBody?.content['application/json'];
  if (media && base.body && typeof base.body === 'object') {
    const pointer = contract.canonicalPointer(`${op.pointer}/requestBody/content/application~1json/schema`);
    const drafts: Draft[] = [];
    walk({ contract, decisions, rng, out: drafts }, media.schema, base.body, [], pointer, false);
    // Where the description has no reference decisions, what it marks reference is the gateway's, not its rule.
    for (const d of drafts.filter((draft) => decisions || !draft.reference)) {
      const body = structuredClone(base.body) as Record<string, unknown>;
      d.apply(body);
      const key = JSON.stringify(body);
      if (seen.has(key) || contract.validateRequestBody(op.operationId, body).ok) continue;
      seen.add(key);
      cases.push({ slug: d.slug, title: d.title, body, query: { ...base.query }, rule: d.rule, reference: d.reference, ...(d.message ? { message: d.message } : {}) });
    }
  }
  for (const p of op.parameters.filter((p) => p.in === 'query')) {
    const rule = contract.canonicalPointer(`${op.pointer}/parameters/${op.parameters.indexOf(p)}`);
    const variants: Array<[string, string, Record<string, string>]> = [];
    if (p.required) {
      const query = { ...base.query };
      delete query[p.name];
      variants.push([`query-required-${p.name}`, `without the required query parameter '${p.name}'`, query]);
    }
    const schema = resolve(contract, p.schema);
    // An empty optional parameter (`?model=`) may fairly be read as an absent one.
    if (p.required && typeof schema.minLength === 'number' && schema.minLength > 0) {
      variants.push([`query-bound-${p.name}-minLength`, `query parameter '${p.name}' shorter than ${schema.minLength}`, { ...base.query, [p.name]: 'x'.repeat(schema.minLength - 1) }]);
    }
    if (Array.isArray(schema.enum)) {
      variants.push([`query-enum-${p.name}`, `query parameter '${p.name}' outside its enum`, { ...base.query, [p.name]: 'conformance-not-in-enum' }]);
    }
    for (const [slug, title, query] of variants) {
      if (contract.validateParameters(op.operationId, 'query', query).ok) continue;
      cases.push({ slug, title, body: base.body, query, rule: `#${rule}`, reference: false });
    }
  }
  return cases;
}

function walk(w: Walk, schemaIn: unknown, value: unknown, path: Path, pointer: string, reference: boolean): void {
  const { contract, rng, out } = w;
  const schema = resolve(contract, schemaIn);
  const ref = reference || isReferenceSchema(contract, schemaIn);
  const where = path.length === 0 ? 'the body' : `'${path.join('.')}'`;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return;
  const obj = value as Record<string, unknown>;
  const messages = (schema['x-required-messages'] ?? {}) as Record<string, string>;
  for (const name of (schema.required as string[] | undefined) ?? []) {
    if (!(name in obj)) continue;
    out.push({
      slug: `required-${dotted(path, name)}`,
      title: `${where} without the required '${name}'`,
      rule: `#${pointer}/required`,
      reference: ref,
      ...(messages[name] ? { message: messages[name] } : {}),
      apply: (b) => removeAt(b, [...path, name]),
    });
  }
  const props = (schema.properties ?? {}) as Record<string, unknown>;
  for (const [name, raw] of Object.entries(props)) {
    const ps = resolve(contract, raw);
    const at = [...path, name];
    const slug = dotted(path, name);
    const propPointer = refTarget(raw) ?? `${pointer}/properties/${name}`;
    const propRef = ref || isReferenceSchema(contract, raw);
    const draft = (kind: string, title: string, keyword: string, bad: unknown) =>
      out.push({ slug: `${kind}-${slug}`, title, rule: `#${propPointer}${keyword ? `/${keyword}` : ''}`, reference: propRef, apply: (b) => setAt(b, at, bad) });
    const types = typesOf(ps);
    if (name in obj && types.length > 0) {
      const wrong = wrongTypeValues(types);
      if (wrong.length > 0) {
        const bad = rng.pick(wrong);
        draft('type', `'${at.join('.')}' as ${jsonType(bad)} instead of ${types.join(' or ')}`, 'type', bad);
      }
    }
    for (const [keyword, bad, title] of boundBreakers(ps, obj[name], rng)) {
      out.push({ slug: `bound-${slug}-${keyword}`, title: `'${at.join('.')}' ${title}`, rule: `#${propPointer}/${keyword}`, reference: propRef, apply: (b) => setAt(b, at, bad) });
    }
    // Bounds of a reference decision (the size limits, D22) stand in an `allOf` member of their own marked
    // `x-conformance: reference`, beside the property's core keywords.
    for (const [index, member] of ((ps.allOf ?? []) as SchemaObject[]).entries()) {
      if (member['x-conformance'] !== 'reference') continue;
      for (const [keyword, bad, title] of boundBreakers(member, obj[name], rng)) {
        out.push({ slug: `bound-${slug}-${keyword}`, title: `'${at.join('.')}' ${title}`, rule: `#${propPointer}/allOf/${index}/${keyword}`, reference: true, apply: (b) => setAt(b, at, bad) });
      }
    }
    if (Array.isArray(ps.enum) && ps.enum.every((v) => typeof v === 'string')) {
      draft('enum', `'${at.join('.')}' outside its enum (${ps.enum.join(', ')})`, 'enum', 'conformance-not-in-enum');
    }
    if (typeof ps.const === 'string') draft('const', `'${at.join('.')}' other than '${ps.const}'`, 'const', `${ps.const}-conformance`);
    const child = obj[name];
    if (child && typeof child === 'object' && !Array.isArray(child)) walk(w, raw, child, at, propPointer, propRef);
    if (Array.isArray(child) && child[0] && typeof ps.items === 'object' && !hasAlternatives(contract, ps.items)) {
      walk(w, ps.items, child[0], [...at, 0], refTarget(ps.items) ?? `${propPointer}/items`, propRef);
    }
  }
  // A schema that extends another (`allOf: [{$ref: …}]`, as a vendor's request extends the shared one): the
  // other's fields too, each at its own place.
  for (const [index, member] of ((schema.allOf ?? []) as unknown[]).entries()) {
    const m = resolve(contract, member);
    if (m.properties || m.required) walk(w, member, value, path, refTarget(member) ?? `${pointer}/allOf/${index}`, ref);
  }
  if (schema.unevaluatedProperties === false || schema.additionalProperties === false) {
    out.push({
      slug: `unknown-property${path.length ? `-${path.join('.')}` : ''}`,
      title: `${where} with an unknown property '${UNKNOWN_PROPERTY}' (closed body)`,
      rule: `#${pointer}/${schema.unevaluatedProperties === false ? 'unevaluatedProperties' : 'additionalProperties'}`,
      // D18: the gateway's closed bodies are a reference decision; a vendor's closed body is its rule.
      reference: w.decisions,
      apply: (b) => setAt(b, [...path, UNKNOWN_PROPERTY], true),
    });
  }
}

/** The pointer a `$ref` names (`/components/schemas/Temperature`), when the schema is one. */
function refTarget(schema: unknown): string | undefined {
  const ref = (schema as { $ref?: unknown })?.$ref;
  return typeof ref === 'string' ? ref.replace(/^#/, '') : undefined;
}

function hasAlternatives(contract: Contract, schema: unknown): boolean {
  const s = resolve(contract, schema);
  return Array.isArray(s.oneOf) || Array.isArray(s.anyOf);
}

function dotted(path: Path, name: string): string {
  return [...path, name].join('.');
}

function setAt(root: Record<string, unknown>, path: Path, value: unknown): void {
  const parent = path.slice(0, -1).reduce<Record<string, unknown>>((node, k) => node[k] as Record<string, unknown>, root);
  parent[path.at(-1)!] = value;
}

function removeAt(root: Record<string, unknown>, path: Path): void {
  const parent = path.slice(0, -1).reduce<Record<string, unknown>>((node, k) => node[k] as Record<string, unknown>, root);
  delete parent[path.at(-1)!];
}
