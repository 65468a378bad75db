/**
 * The fields a request sends that its description does not name, where the description lets them through
 * (an open object): accepted and ignored by the contract, and so never a violation, but what real clients
 * send that the contract does not yet describe (Claude Code's `context_management`, Codex's
 * `prompt_cache_key`…). Named by their place, array items as `[]`: `messages[].content[].cache_control`.
 */
import type { Contract } from '../../contract/index.ts';

/** How far the walk goes, for a request of any shape: bounded work per exchange. */
const MAX_DEPTH = 12;
const MAX_ITEMS = 64;
const MAX_KEYS = 256;

type Schema = Record<string, unknown>;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * @example
 * undeclaredFields(contract, schema, { model: 'm', messages: [], context_management: {} }); // ['context_management']
 */
export function undeclaredFields(contract: Contract, schema: unknown, value: unknown): string[] {
  const found = new Set<string>();
  walk(contract, schema, value, '', 0, found);
  return [...found];
}

/** The object schemas a value is checked against: the schema and what it extends (`allOf`), and the branch of a union its tag picks. */
function members(contract: Contract, schema: unknown, value: Record<string, unknown>, depth = 0): Schema[] {
  const s = contract.resolveSchema(schema) as Schema;
  if (depth > MAX_DEPTH) return [];
  const own = [s, ...((s.allOf ?? []) as unknown[]).flatMap((m) => members(contract, m, value, depth + 1))];
  const branches = ((s.oneOf ?? s.anyOf ?? []) as unknown[]).map((b) => contract.resolveSchema(b) as Schema);
  if (branches.length === 0) return own;
  const objects = branches.filter((b) => isObject(b.properties));
  // The branch whose constant tag the value carries (a message's `role`, a block's `type`), else the only object branch.
  const tagged = objects.filter((b) => Object.entries(b.properties as Schema).some(([k, p]) => {
    const c = (contract.resolveSchema(p) as Schema).const;
    return c !== undefined && value[k] === c;
  }));
  const chosen = tagged.length === 1 ? tagged : objects.length === 1 ? objects : [];
  return [...own, ...chosen.flatMap((b) => members(contract, b, value, depth + 1))];
}

function walk(contract: Contract, schema: unknown, value: unknown, path: string, depth: number, found: Set<string>): void {
  if (depth > MAX_DEPTH || schema === undefined) return;
  if (Array.isArray(value)) {
    const s = contract.resolveSchema(schema) as Schema;
    const items = s.items ?? ((s.anyOf ?? s.oneOf ?? []) as unknown[]).map((b) => (contract.resolveSchema(b) as Schema).items).find(Boolean);
    if (items) for (const item of value.slice(0, MAX_ITEMS)) walk(contract, items, item, `${path}[]`, depth + 1, found);
    return;
  }
  if (!isObject(value)) return;
  const all = members(contract, schema, value);
  // Where any name is welcome (a tool's JSON Schema, metadata), nothing is undeclared.
  if (all.some((m) => m.additionalProperties !== undefined && m.additionalProperties !== false) || all.some((m) => m.patternProperties)) return;
  const closed = all.some((m) => m.additionalProperties === false || m.unevaluatedProperties === false);
  const declared = new Map<string, unknown>();
  for (const m of all) for (const [k, p] of Object.entries((m.properties ?? {}) as Schema)) if (!declared.has(k)) declared.set(k, p);
  if (declared.size === 0) return;
  for (const key of Object.keys(value).slice(0, MAX_KEYS)) {
    const place = path ? `${path}.${key}` : key;
    if (declared.has(key)) walk(contract, declared.get(key), value[key], place, depth + 1, found);
    // A closed object refuses the field: that is a violation of the request, reported as one, not listed here.
    else if (!closed) found.add(place);
  }
}
