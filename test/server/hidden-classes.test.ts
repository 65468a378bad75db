/**
 * Two object shapes that cost every request on Node 20 (V8 11.3), found with heap profiles of the bench's
 * load (`npm run bench -- --baseline`), and kept out of the code a request runs through:
 *
 * - An object literal that begins with a spread of an object and goes on with more members
 *   (`{ ...head, object: 'chat.completion.chunk' }`, `{ ...a, ...b }`) gets a hidden class (map) of its own,
 *   every time it is evaluated: maps live in the old generation, so each is work for the next full collection,
 *   and code that reads such objects sees a new shape each time. Members written out, a spread after the first
 *   member, or `Object.assign({}, a, b)` share one map.
 * - An object literal with a getter or setter: V8 keeps the accessor in the old generation, so its closure
 *   (and whatever the closure holds: a whole request) outlives every young collection until the next full one.
 *   A class's accessor, on its prototype, holds nothing of any one object.
 *
 * The rule is read from the sources with TypeScript's parser; the objects the stream writers make are also
 * checked for shared maps in V8 itself.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/paths.ts';
import { messageWriter } from '../../src/server/client-protocols/anthropic-messages/message.ts';
import { chatChunks } from '../../src/server/client-protocols/openai-chat/chunks.ts';
import { responseWriter } from '../../src/server/client-protocols/openai-responses/response.ts';
import type { AnswerEvent } from '../../src/server/domain/answer-events.ts';
import type { AnswerWriter } from '../../src/server/http/answer-stream.ts';

/**
 * Code that runs once at start, or on callers' JSON schemas (where a spread's own-key semantics matter, and
 * which runs in a worker thread): not on the path of every request.
 */
const exempt = ['src/server/app.ts', 'src/server/config.ts', 'src/server/workers/', 'src/server/domain/engine/'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

interface Finding {
  where: string;
  text: string;
}

/** Object literals of the two shapes in one file (its text, when given, instead of what is on disk). */
function findings(file: string, text = readFileSync(file, 'utf8')): { leadingSpread: Finding[]; accessors: Finding[] } {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const leadingSpread: Finding[] = [];
  const accessors: Finding[] = [];
  const at = (node: ts.Node): Finding => ({
    where: `${relative(root, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`,
    text: node.getText().replace(/\s+/g, ' ').slice(0, 100),
  });
  const visit = (node: ts.Node): void => {
    if (ts.isObjectLiteralExpression(node)) {
      const [first] = node.properties;
      if (first && ts.isSpreadAssignment(first) && node.properties.length > 1) leadingSpread.push(at(node));
      for (const member of node.properties) if (ts.isGetAccessorDeclaration(member) || ts.isSetAccessorDeclaration(member)) accessors.push(at(member));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { leadingSpread, accessors };
}

const files = sourceFiles(join(root, 'src', 'server'));
const onRequestPath = files.filter((file) => !exempt.some((prefix) => relative(root, file).startsWith(prefix)));

describe('object shapes on the request path', () => {
  it('reads the server\'s sources', () => {
    expect(onRequestPath.length).toBeGreaterThan(50);
    expect(onRequestPath.some((f) => f.endsWith(join('routes', 'createChatCompletion.ts')))).toBe(true);
  });

  it('has no object literal that begins with a spread and goes on', () => {
    const found = onRequestPath.flatMap((file) => findings(file).leadingSpread);
    expect(found, 'write the members out, put the spread after a member, or use Object.assign({}, …)').toEqual([]);
  });

  it('has no object literal with a getter or setter, anywhere in the server', () => {
    expect(files.flatMap((file) => findings(file).accessors), 'use a class, whose accessors are on its prototype').toEqual([]);
  });

  it('finds both shapes where they are (the rule reads what it should)', () => {
    const probe = [
      "const chunk = { ...head, object: 'chunk' };",
      "const fine = { id: head.id, ...(usage && { usage }) };",
      'const event = { ...(event !== undefined && { event }), data };',
      'const copy = { ...head };',
      'const abandonment = { get signal() { return signal; } };',
      'class Abandonment { get signal() { return this.#signal; } }',
    ].join('\n');
    const { leadingSpread, accessors } = findings(join(root, 'probe.ts'), probe);
    expect(leadingSpread.map((f) => f.text)).toEqual(['{ ...head, object: \'chunk\' }', '{ ...(event !== undefined && { event }), data }']);
    expect(accessors.map((f) => f.text)).toEqual(['get signal() { return signal; }']);
  });
});

describe('the stream writers\' events share their hidden classes', () => {
  setFlagsFromString('--allow-natives-syntax');
  // Compiled after the flag is set: V8's own test of whether two objects have the same map.
  const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
  const steps: AnswerEvent[] = [
    { type: 'text', text: 'Hello' },
    { type: 'text', text: ' world' },
    { type: 'end', finishReason: 'stop', stopSequence: null, promptTokens: 3, completionTokens: 2 },
  ];
  /**
   * The objects of the last two of many answers: the first few share their maps even in the shape the rule
   * keeps out (V8 begins to make a map per object once the literal's inline cache has warmed up).
   */
  const lastTwo = (writerFor: (n: number) => AnswerWriter): [object[], object[]] => {
    const answers = Array.from({ length: 50 }, (_, n) => {
      const writer = writerFor(n);
      return steps.flatMap((step) => writer.write(step)).map((e) => ('data' in e ? e.data : undefined)).filter((d): d is object => typeof d === 'object' && d !== null);
    });
    return [answers[48]!, answers[49]!];
  };

  it('tells maps apart, the rule\'s shape included', () => {
    const make = (n: number) => ({ id: `chatcmpl-${n}`, created: n, model: 'm' });
    const spreadFirst = (head: object) => ({ ...head, object: 'chunk' });
    const written = (head: { id: string; created: number; model: string }) => ({ id: head.id, created: head.created, model: head.model, object: 'chunk' });
    const many = <T extends object>(f: (n: number) => T) => Array.from({ length: 50 }, (_, n) => f(n));
    const [a, b] = many((n) => spreadFirst(make(n))).slice(-2);
    const [c, d] = many((n) => written(make(n))).slice(-2);
    expect(sameMap(make(1), make(2))).toBe(true);
    expect(sameMap(make(1), { model: 'm', id: 'a', created: 1 })).toBe(false);
    // On Node 20 a map for each object: what the rule keeps out.
    expect(sameMap(a!, b!)).toBe(false);
    expect(sameMap(c!, d!)).toBe(true);
  });

  it('chat chunks of two completions', () => {
    const [a, b] = lastTwo((n) => chatChunks({ id: `chatcmpl-${n}`, created: n, model: 'gpt-4o-mini' }, true));
    expect(a.length).toBe(1); // the usage (the role, the deltas and the finish are strings from templates)
    a.forEach((chunk, i) => expect(sameMap(chunk, b[i]!), `chunk ${i}`).toBe(true));
  });

  it('Responses events of two responses', () => {
    const [a, b] = lastTwo((n) => responseWriter({ model: 'gpt-4o-mini', input: 'Hi' }, { id: `resp_${n}`, createdAt: n, model: 'gpt-4o-mini', newId: (prefix) => `${prefix}${n}` }));
    expect(a.length).toBe(1); // response.completed (the message's events are strings from templates)
    a.forEach((event, i) => expect(sameMap(event, b[i]!), `event ${i}`).toBe(true));
  });

  it('Anthropic message events of two messages', () => {
    const [a, b] = lastTwo((n) => messageWriter({ id: `msg_${n}`, model: 'gpt-4o-mini' }, 3));
    expect(a.length).toBe(1); // message_delta (the others are strings made once, or from templates)
    a.forEach((event, i) => expect(sameMap(event, b[i]!), `event ${i}`).toBe(true));
  });
});
