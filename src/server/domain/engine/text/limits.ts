/**
 * The size limits of a chat request that the engine enforces (decision D22), read from the contract: the text
 * of a whole request (`ChatCompletionRequest` `x-limits`) and the shape of each tool's `parameters` (or
 * Anthropic `input_schema`) schema (`ToolParameters` `x-limits`). Each keeps the work of one request bounded; a request over one is refused
 * with a message that names the limit.
 */
import { gatewayDocument } from '../../../../contract/gateway-document.ts';
import { resolveRef } from '../../../../contract/refs.ts';
import { TextEngineError } from './errors.ts';

interface ToolLimits {
  characters: number;
  depth: number;
  schemas: number;
  minItems: number;
  minProperties: number;
  minLength: number;
  valueParts: number;
}

type Json = Record<string, unknown>;
const schemas = gatewayDocument.components.schemas as Record<string, Json>;

export const toolLimits = schemas.ToolParameters!['x-limits'] as ToolLimits;
export const textLimit = (schemas.ChatCompletionRequest!['x-limits'] as { textCharacters: number }).textCharacters;

const number = (n: number) => n.toLocaleString('en-US');

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Refuses a request whose text is over the limit.
 *
 * @example
 * checkTextSize(5_000_000); // throws: … at most 4,194,304 …
 */
export function checkTextSize(characters: number): void {
  if (characters > textLimit) {
    throw new TextEngineError(`The request holds ${number(characters)} characters of text; at most ${number(textLimit)} are accepted (messages, tool names, descriptions and parameters together).`);
  }
}

/**
 * Refuses a tool whose `parameters` schema is over a limit, or refers to itself without going into a
 * property or an item (`{ anyOf: [{ $ref: '#' }] }`: no value could ever satisfy it, and checking one would
 * never end).
 *
 * @example
 * checkToolSchema('get_weather', { type: 'object', properties: { city: { type: 'string' } } }); // fine
 */
export function checkToolSchema(tool: string, parameters: unknown, what = `The parameters schema of tool '${tool}'`): void {
  const refuse = (problem: string): never => {
    throw new TextEngineError(`${what} ${problem} (decision D22).`);
  };
  const size = JSON.stringify(parameters)?.length ?? 0;
  if (size > toolLimits.characters) refuse(`is ${number(size)} characters long as JSON; the limit is ${number(toolLimits.characters)}`);

  let count = 0;
  const stack: Array<{ node: unknown; depth: number }> = [{ node: parameters, depth: 1 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (Array.isArray(node)) {
      for (const item of node) stack.push({ node: item, depth: depth + 1 });
      continue;
    }
    if (!isObject(node)) continue;
    if (depth > toolLimits.depth) refuse(`is nested more than ${toolLimits.depth} levels deep`);
    if (++count > toolLimits.schemas) refuse(`has more than ${number(toolLimits.schemas)} objects`);
    for (const keyword of ['minItems', 'minProperties', 'minLength'] as const) {
      const value = node[keyword];
      if (typeof value === 'number' && value > toolLimits[keyword]) refuse(`asks for ${keyword} ${number(value)}; the limit is ${number(toolLimits[keyword])}`);
    }
    for (const child of Object.values(node)) stack.push({ node: child, depth: depth + 1 });
  }
  const loop = selfReference(parameters);
  if (loop !== undefined) refuse(`refers to itself (${loop}) without going into a property or an item`);
}

/** Keywords whose schemas apply to the value itself, not to a part of it. */
const IN_PLACE = ['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else'];

/**
 * A `$ref` by which a schema reaches itself through keywords that apply in place only, or undefined. Each
 * schema object is visited once (depth-first, marking those on the current path).
 */
function selfReference(root: unknown): string | undefined {
  const onPath = new Set<Json>();
  const done = new Set<Json>();
  let found: string | undefined;

  const inPlace = (schema: Json): Array<{ next: Json; via?: string }> => {
    const out: Array<{ next: Json; via?: string }> = [];
    if (typeof schema.$ref === 'string') {
      const target = resolveRef(root, schema.$ref);
      if (isObject(target)) out.push({ next: target, via: schema.$ref });
    }
    for (const keyword of IN_PLACE) {
      const value = schema[keyword];
      for (const member of Array.isArray(value) ? value : [value]) if (isObject(member)) out.push({ next: member });
    }
    return out;
  };

  // Depth-first with a stack of its own: a chain of thousands of `$ref`s is within the limits.
  const visit = (start: Json): void => {
    const path: Array<{ schema: Json; next: Array<{ next: Json; via?: string }>; at: number }> = [];
    const enter = (schema: Json) => {
      onPath.add(schema);
      path.push({ schema, next: inPlace(schema), at: 0 });
    };
    enter(start);
    while (path.length > 0 && found === undefined) {
      const top = path[path.length - 1]!;
      if (top.at === top.next.length) {
        path.pop();
        onPath.delete(top.schema);
        done.add(top.schema);
        continue;
      }
      const { next, via } = top.next[top.at++]!;
      if (onPath.has(next)) found = via ?? 'through allOf, anyOf or oneOf';
      else if (!done.has(next)) enter(next);
    }
  };

  // Every schema object of the document, as a starting point (a loop may hide in `$defs`).
  const all: Json[] = [];
  const collect = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(collect);
    else if (isObject(node)) {
      all.push(node);
      Object.values(node).forEach(collect);
    }
  };
  collect(root);
  for (const schema of all) if (found === undefined && !done.has(schema)) visit(schema);
  return found;
}
