/**
 * The project's one `$ref` resolver: JSON pointers and local references (`#/components/...`, `#/$defs/...`)
 * resolved against a root document. The contract follows its own references with it (spec.ts), and the text
 * engine follows those of a caller's tool schema.
 */

/** `a/b~c` as a pointer token: `a~1b~0c`. */
export function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function unescapePointer(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * The value a JSON pointer names inside `root` (`''` is the root itself), or undefined.
 *
 * @example
 * resolvePointer({ a: { 'b/c': 1 } }, '/a/b~1c'); // 1
 */
export function resolvePointer(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  if (!pointer.startsWith('/')) return undefined;
  let node = root;
  for (const token of pointer.slice(1).split('/')) {
    if (node === null || typeof node !== 'object') return undefined;
    const key = unescapePointer(token);
    if (!Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/**
 * What a local reference (`#`, `#/$defs/a`, percent-encoded as URI fragments may be) names inside `root`;
 * undefined for a reference to another document or to nothing.
 *
 * @example
 * resolveRef({ $defs: { a: { type: 'string' } } }, '#/$defs/a'); // { type: 'string' }
 */
export function resolveRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let pointer: string;
  try {
    pointer = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  return resolvePointer(root, pointer);
}

/** An object with a string `$ref`. */
export function isRef(value: unknown): value is { $ref: string } {
  return typeof value === 'object' && value !== null && typeof (value as { $ref?: unknown }).$ref === 'string';
}

/**
 * Follows `$ref` after `$ref` inside `root` to the value that is not one (at most `maxHops`; a cycle throws).
 *
 * @example
 * followRefs(spec, { $ref: '#/components/schemas/Error' }); // the Error schema
 */
export function followRefs<T>(root: unknown, value: unknown, maxHops = 32): T {
  let current = value;
  for (let hops = 0; isRef(current); hops++) {
    if (hops === maxHops) throw new Error(`$ref chain longer than ${maxHops} at ${current.$ref}`);
    const target = resolveRef(root, current.$ref);
    if (target === undefined) throw new Error(`Unresolved $ref ${current.$ref}`);
    current = target;
  }
  return current as T;
}

/**
 * A schema with its `$ref` chain followed inside `root`; keywords beside a `$ref` are kept and win over the
 * target's (in JSON Schema 2020-12 they apply as well, and here they only ever narrow or describe).
 *
 * @example
 * resolveSchema(root, { $ref: '#/$defs/city', description: 'Where' }); // { type: 'string', description: 'Where' }
 */
export function resolveSchema(root: unknown, schema: unknown, maxHops = 32): unknown {
  let current = schema;
  const siblings: Record<string, unknown> = {};
  for (let hops = 0; isRef(current); hops++) {
    if (hops === maxHops) throw new Error(`$ref chain longer than ${maxHops} at ${current.$ref}`);
    const { $ref, ...rest } = current as Record<string, unknown> & { $ref: string };
    for (const [key, value] of Object.entries(rest)) if (!(key in siblings)) siblings[key] = value;
    const target = resolveRef(root, $ref);
    if (target === undefined) throw new Error(`Unresolved $ref ${$ref}`);
    current = target;
  }
  if (Object.keys(siblings).length === 0) return current;
  if (typeof current === 'object' && current !== null && !Array.isArray(current)) return { ...current, ...siblings };
  return current === true ? siblings : current;
}
