// The vendor descriptions name every request parameter their vendors list (decision D33: what no description
// names is refused), with the vendor's bounds: OpenAI's chat request against OpenAI's own schemas
// (./openai/), and every request parameter of the official SDKs this repository installs (their types are
// generated from the vendors' API references) against the chat, Responses, Messages and count_tokens requests.
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { loadContract, type Contract } from '../../src/contract/index.ts';
import { root } from '../examples/run.ts';

type Schema = Record<string, unknown>;

const openai = loadContract('openai');
const anthropic = loadContract('anthropic');

/** The schema of an operation's JSON request body. */
function requestSchema(contract: Contract, operationId: string): Schema {
  return contract.deref<Schema>({ $ref: `#${contract.requestBodyPointer(contract.getOperation(operationId))}` });
}

/** The properties a schema names, its own and those of the schemas it extends (`allOf`), by name. */
function properties(contract: Contract, schema: unknown): Map<string, Schema> {
  const s = contract.resolveSchema(schema) as Schema;
  const found = new Map<string, Schema>();
  for (const member of (s.allOf ?? []) as unknown[]) for (const [k, v] of properties(contract, member)) found.set(k, v);
  for (const [k, v] of Object.entries((s.properties ?? {}) as Schema)) found.set(k, v as Schema);
  return found;
}

const BOUNDS = ['minimum', 'maximum', 'minItems', 'maxItems', 'minLength', 'maxLength'] as const;

/**
 * The bounds and string enum values a parameter's schema states, wherever its alternatives (`anyOf`,
 * `oneOf`, `allOf`, `$ref`) put them, but not inside its properties or items, and not the gateway's own
 * limits (an `allOf` member marked `x-conformance: reference`).
 */
function bounds(resolve: (s: unknown) => Schema, schema: unknown, into = new Map<string, Set<unknown>>()): Map<string, Set<unknown>> {
  const s = resolve(schema);
  if (s['x-conformance'] === 'reference') return into;
  for (const k of BOUNDS) if (typeof s[k] === 'number') (into.get(k) ?? into.set(k, new Set()).get(k)!).add(s[k]);
  for (const v of (Array.isArray(s.enum) ? s.enum : []) as unknown[]) if (typeof v === 'string') (into.get('enum') ?? into.set('enum', new Set()).get('enum')!).add(v);
  for (const key of ['anyOf', 'oneOf', 'allOf']) for (const m of (s[key] ?? []) as unknown[]) bounds(resolve, m, into);
  return into;
}

/** OpenAI's chat request parameters, from OpenAI's schemas, with the resolver of their `$ref`s. */
function openaiChatParameters(): { params: Map<string, Schema>; resolve: (s: unknown) => Schema } {
  const file = JSON.parse(readFileSync(new URL('./openai/chat-completion-schemas.json', import.meta.url), 'utf8')) as { components: { schemas: Record<string, Schema> } };
  const resolve = (s: unknown): Schema => {
    const ref = (s as Schema | undefined)?.$ref;
    return typeof ref === 'string' ? resolve(file.components.schemas[ref.replace('#/components/schemas/', '')]) : ((s ?? {}) as Schema);
  };
  const params = new Map<string, Schema>();
  const collect = (s: unknown): void => {
    const r = resolve(s);
    for (const m of (r.allOf ?? []) as unknown[]) collect(m);
    for (const [k, v] of Object.entries((r.properties ?? {}) as Schema)) params.set(k, v as Schema);
  };
  collect({ $ref: '#/components/schemas/CreateChatCompletionRequest' });
  return { params, resolve };
}

/**
 * The request body parameters an SDK's type declares: the members of the interface (and of the interfaces
 * it extends in the same file), less those its comment calls a header parameter.
 */
function sdkParameters(file: string, name: string): string[] {
  const text = readFileSync(`${root}node_modules/${file}`, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isInterfaceDeclaration(node) && node.name.text === name) {
      for (const member of node.members) {
        if (!ts.isPropertySignature(member)) continue;
        const comment = text.slice(member.getFullStart(), member.getStart());
        if (!/Header param:/.test(comment)) found.push(member.name.getText(source));
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (found.length === 0) throw new Error(`${file} declares no ${name}`);
  return found;
}

describe("the vendor descriptions' request parameters", () => {
  it("name every parameter of OpenAI's chat request, with OpenAI's bounds and enums", () => {
    const { params, resolve } = openaiChatParameters();
    const ours = properties(openai, requestSchema(openai, 'createChatCompletion'));
    expect(params.size).toBeGreaterThan(35);
    expect([...params.keys()].filter((name) => !ours.has(name))).toEqual([]);
    // `model`'s enum lists OpenAI's model ids beside any string: an example, not a bound.
    for (const [name, theirs] of [...params].filter(([n]) => n !== 'model')) {
      const stated = bounds((s) => openai.resolveSchema(s) as Schema, ours.get(name));
      for (const [keyword, values] of bounds(resolve, theirs)) {
        for (const value of values) expect(stated.get(keyword)?.has(value), `${name}: ${keyword} ${JSON.stringify(value)}`).toBe(true);
      }
    }
  });

  it.each([
    ['openai', 'createChatCompletion', 'openai/resources/chat/completions/completions.d.ts', 'ChatCompletionCreateParamsBase'],
    ['openai', 'createResponse', 'openai/resources/responses/responses.d.ts', 'ResponseCreateParamsBase'],
    ['anthropic', 'createMessage', '@anthropic-ai/sdk/resources/messages/messages.d.ts', 'MessageCreateParamsBase'],
    ['anthropic', 'countMessageTokens', '@anthropic-ai/sdk/resources/messages/messages.d.ts', 'MessageCountTokensParams'],
  ] as const)('%s %s names every body parameter of the SDK (%s)', (name, operationId, file, type) => {
    const contract = name === 'openai' ? openai : anthropic;
    const ours = properties(contract, requestSchema(contract, operationId));
    const sdk = sdkParameters(file, type);
    expect(sdk.length).toBeGreaterThan(8);
    expect(sdk.filter((param) => !ours.has(param))).toEqual([]);
  });
});
