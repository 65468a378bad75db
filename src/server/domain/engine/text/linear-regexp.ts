/**
 * Callers' regular expressions (a tool schema's `pattern` and `patternProperties`), matched in time linear in
 * the text: RE2 (re2js, a JavaScript port) instead of the JavaScript engine, which backtracks and takes
 * exponential time on patterns such as `^(a|aa)+$`. RE2 reads nearly all of JSON Schema's regular expressions;
 * it has no look-around and no back-reference, and a pattern it cannot read is not used at all.
 */
import { RE2JS } from 're2js';

/** What ajv and the pattern sampler need of a regular expression. */
export interface LinearRegExp {
  test(text: string): boolean;
  toString(): string;
}

/**
 * The pattern compiled for linear-time matching; throws when RE2 cannot read it. It is also an engine for
 * ajv's `code.regExp` option (ajv passes its `u` flag, which RE2 needs no more than it needs the others).
 *
 * @example
 * linearRegExp('^(a|aa)+$').test(`${'a'.repeat(10_000)}b`); // false, at once
 */
export function linearRegExp(pattern: string): LinearRegExp {
  const compiled = RE2JS.compile(RE2JS.translateRegExp(pattern));
  // ajv keeps one compiled pattern per `toString()`: without it every pattern would share one key.
  return { test: (text) => compiled.test(text), toString: () => `/${pattern}/` };
}
linearRegExp.code = 'linearRegExp';
