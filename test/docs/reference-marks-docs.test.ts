/**
 * The documentation form of `x-conformance: reference` (scripts/lib/reference-marks-docs.ts): every mark of
 * the contract said in words in the description of what it marks, none left for Redoc to show bare, and the
 * bundle itself, which the conformance suite reads, unchanged.
 */
import { describe, expect, it } from 'vitest';
import { documentReferenceMarks, REFERENCE_WORDS } from '../../scripts/lib/reference-marks-docs.ts';
import { contract } from '../../src/contract/index.ts';

const count = (text: string, part: string) => text.split(part).length - 1;

describe('reference marks on the docs page', () => {
  it('says a bound in an allOf member of its own as a bound, on the schema around it', () => {
    const schema = { type: 'array', description: 'The conversation so far.', allOf: [{ 'x-conformance': 'reference', maxItems: 4096 }] };
    expect(documentReferenceMarks(schema)).toEqual({
      type: 'array',
      description: `The conversation so far.\n\n*${REFERENCE_WORDS.bound}*`,
      allOf: [{ maxItems: 4096 }],
    });
  });

  it('says any other mark as a choice, on what it marks, described or not', () => {
    const header = { description: 'Reference decision: the key’s daily image quota.', 'x-conformance': 'reference', schema: { type: 'integer' } };
    expect(documentReferenceMarks(header)).toEqual({ description: `Reference decision: the key’s daily image quota.\n\n*${REFERENCE_WORDS.choice}*`, schema: { type: 'integer' } });
    expect(documentReferenceMarks({ oneOf: [{ type: 'string', allOf: [{ 'x-conformance': 'reference', maxLength: 10, pattern: '^a' }] }] })).toEqual({
      oneOf: [{ type: 'string', allOf: [{ maxLength: 10, pattern: '^a' }], description: `*${REFERENCE_WORDS.choice}*` }],
    });
  });

  it('leaves no mark in the contract as rendered, says each one, and does not change the bundle', () => {
    const bundle = JSON.stringify(contract.spec);
    const marks = count(bundle, '"x-conformance":"reference"');
    expect(marks).toBeGreaterThan(10);
    const rendered = JSON.stringify(documentReferenceMarks(contract.spec));
    expect(count(rendered, 'x-conformance":')).toBe(0);
    expect(count(rendered, REFERENCE_WORDS.bound) + count(rendered, REFERENCE_WORDS.choice)).toBe(marks);
    expect(JSON.stringify(contract.spec)).toBe(bundle);
  });
});
