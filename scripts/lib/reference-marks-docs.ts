/**
 * The documentation form of `x-conformance: reference`, the contract's mark on a schema, header or bound that
 * belongs to a reference decision (the conformance suite checks it only in its `full` profile). Shown as it
 * is, Redoc renders it "conformance: reference" under a field, which reads as if the field were optional for
 * implementations. For the docs page only, each mark becomes what it means, in words added to the description
 * of what it marks: a bound in an `allOf` member of its own (the size limits, D22) marks the schema around it.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const MARK = 'x-conformance';

/** The words a mark becomes: on a bound, and on anything else (a body, a header, a field). */
export const REFERENCE_WORDS = {
  bound: 'Bound chosen by this gateway; other implementations may differ.',
  choice: 'Chosen by this gateway; other implementations may differ.',
} as const;

/** The keywords of a bound: an `allOf` member that holds only these (and the mark) is a bound. */
const BOUND_KEYWORDS = new Set(['maxItems', 'minItems', 'maxLength', 'minLength', 'maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum', 'maxProperties', 'minProperties']);

/**
 * A copy of a bundled description without `x-conformance: reference` marks, each said in words (in italics,
 * as its own paragraph) in the description of what it marks. The rest is untouched. Only for rendering: the
 * bundle itself keeps its marks, which the conformance suite reads.
 *
 * @example
 *   writeFileSync(forDocs, JSON.stringify(documentReferenceMarks(JSON.parse(readFileSync(bundle, 'utf8')))));
 */
export function documentReferenceMarks<T>(spec: T): T {
  const visit = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(visit);
    if (!isObject(node)) return node;
    const words = new Set<string>();
    if (isMark(node)) words.add(REFERENCE_WORDS.choice);
    const copy: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === MARK && isMark(node)) continue;
      if (key === 'allOf' && Array.isArray(value)) {
        copy.allOf = value.map((member) => {
          if (!isObject(member) || !isMark(member)) return visit(member);
          const { [MARK]: _mark, ...rest } = member;
          words.add(Object.keys(rest).every((keyword) => BOUND_KEYWORDS.has(keyword)) ? REFERENCE_WORDS.bound : REFERENCE_WORDS.choice);
          return visit(rest);
        });
      } else copy[key] = visit(value);
    }
    if (words.size > 0) {
      const said = [...words].map((text) => `*${text}*`);
      copy.description = [typeof copy.description === 'string' ? copy.description.trimEnd() : '', ...said].filter(Boolean).join('\n\n');
    }
    return copy;
  };
  return visit(spec as Json) as T;
}

function isObject(node: Json | undefined): node is JsonObject {
  return typeof node === 'object' && node !== null && !Array.isArray(node);
}

function isMark(node: JsonObject): boolean {
  return node[MARK] === 'reference';
}
