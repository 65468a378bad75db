/**
 * Tagged unions, validated by their tag. A `oneOf` whose branches are objects told apart by one required
 * property with a constant value (a chat message by `role`, a content part by `type`) is, for ajv, given
 * what those branches already say: `type: object`, the tag required, the tag's values as an `enum`, and
 * `discriminator: { propertyName }`, so that ajv validates only the branch the tag names.
 *
 * Why: without it, ajv runs every branch on every message (with `allErrors`, to the end), which makes the
 * chat request's validation many times slower, and its message for a user message without `content` is the
 * other branches' `role must be equal to constant`. With it, the message is the named branch's own (`must
 * have required property 'content'`), or the enum's for an unknown tag.
 *
 * The spec itself has no `discriminator`: ajv accepts one only without `mapping`, and without `mapping`
 * openapi-typescript and Redoc take the branch schemas' names for the tag's values. Every keyword added
 * here follows from the branches, so a value is valid with them exactly when it is valid without them
 * (test/contract/discriminators.test.ts compares the two on many values). `type: object` is not only
 * implied: ajv's `discriminator` lets anything that is not an object through.
 */

import type { OpenApiDocument } from './document.ts';
import { escapePointer, followRefs } from './refs.ts';

type Schema = Record<string, unknown>;

/** A tagged union found in the spec: where its `oneOf` is, the tag, and each branch's value. */
export interface TaggedUnion {
  pointer: string;
  tag: string;
  values: string[];
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The branch's constant value of `tag`, when the branch requires it. */
function tagValue(branch: Schema, tag: string): string | undefined {
  const properties = branch.properties;
  const required = branch.required;
  if (!isSchema(properties) || !Array.isArray(required) || !required.includes(tag)) return undefined;
  const property = properties[tag];
  return isSchema(property) && typeof property.const === 'string' ? property.const : undefined;
}

/** The tag of a `oneOf` schema and the value of each branch, when it is a tagged union. */
function taggedUnion(document: OpenApiDocument, schema: Schema): { tag: string; values: string[] } | undefined {
  const oneOf = schema.oneOf;
  if (!Array.isArray(oneOf) || oneOf.length < 2 || 'discriminator' in schema) return undefined;
  if (schema.type !== undefined && schema.type !== 'object') return undefined;
  // A sibling that judges the object's properties as a whole would see the added `properties` too.
  if ('unevaluatedProperties' in schema || 'additionalProperties' in schema) return undefined;
  // Branches are read from the description itself: the copy being marked has the same content.
  const branches = oneOf.map((member) => (isSchema(member) ? followRefs<unknown>(document, member) : undefined));
  if (!branches.every((branch): branch is Schema => isSchema(branch) && (branch.type === undefined || branch.type === 'object'))) return undefined;
  const first = branches[0]!;
  const candidates = isSchema(first.properties) ? Object.keys(first.properties).sort() : [];
  for (const tag of candidates) {
    const values = branches.map((branch) => tagValue(branch, tag));
    if (values.every((value): value is string => value !== undefined) && new Set(values).size === values.length) {
      return { tag, values };
    }
  }
  return undefined;
}

/**
 * A copy of a description in which every tagged union is marked for ajv, and where they are.
 *
 * @example
 * const { document, unions } = withDiscriminators(contract.spec);
 * unions; // [{ pointer: '/components/schemas/ChatMessage', tag: 'role', values: ['system', 'user', 'assistant', 'tool'] }, …]
 */
export function withDiscriminators(source: OpenApiDocument): { document: OpenApiDocument; unions: TaggedUnion[] } {
  const document = structuredClone(source);
  const unions: TaggedUnion[] = [];
  const visit = (node: unknown, pointer: string): void => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => visit(item, `${pointer}/${i}`));
      return;
    }
    if (!isSchema(node)) return;
    for (const [key, child] of Object.entries(node)) visit(child, `${pointer}/${escapePointer(key)}`);
    const union = taggedUnion(source, node);
    if (!union) return;
    const properties = isSchema(node.properties) ? node.properties : {};
    const required = Array.isArray(node.required) ? node.required : [];
    const own = properties[union.tag];
    Object.assign(node, {
      type: 'object',
      required: required.includes(union.tag) ? required : [...required, union.tag],
      properties: { ...properties, [union.tag]: { ...(isSchema(own) ? own : {}), enum: union.values } },
      discriminator: { propertyName: union.tag },
    });
    unions.push({ pointer, ...union });
  };
  visit(document, '');
  return { document, unions };
}
