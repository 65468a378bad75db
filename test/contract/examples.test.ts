// Every example in the spec validates against its schema with ajv 2020: an independent check beside
// Redocly's `no-invalid-media-type-examples` and `no-invalid-schema-examples`.
import { describe, expect, it } from 'vitest';
import { contract, escapePointer, describeErrors } from '../../src/contract/index.ts';

interface Case {
  name: string;
  pointer: string;
  value: unknown;
}

function mediaTypeExamples(): Case[] {
  const cases: Case[] = [];
  for (const op of contract.operations) {
    const media: Array<[string, Record<string, { examples?: Record<string, unknown> }>]> = [];
    if (op.raw.requestBody) media.push([`${op.pointer}/requestBody/content`, op.raw.requestBody.content]);
    for (const [status, response] of Object.entries(op.responses)) {
      media.push([`${op.pointer}/responses/${status}/content`, response.content ?? {}]);
    }
    for (const [base, content] of media) {
      for (const [type, mediaType] of Object.entries(content)) {
        for (const [exampleName, example] of Object.entries(mediaType.examples ?? {})) {
          const { value } = contract.deref<{ value: unknown }>(example as { $ref: string });
          cases.push({
            name: `${op.operationId} ${base.split('/').at(-2)} ${type} ${exampleName}`,
            pointer: contract.canonicalPointer(`${base}/${escapePointer(type)}/schema`),
            value,
          });
        }
      }
    }
  }
  return cases;
}

describe('media type examples', () => {
  const cases = mediaTypeExamples();

  it('cover every operation, with a request example where there is a body and an example for every response', () => {
    for (const op of contract.operations) {
      if (op.raw.requestBody) expect(cases.some((c) => c.name.startsWith(`${op.operationId} requestBody`)), op.operationId).toBe(true);
      for (const [status, response] of Object.entries(op.responses)) {
        for (const [type, mediaType] of Object.entries(response.content ?? {})) {
          expect(Object.keys(mediaType.examples ?? {}).length, `${op.operationId} ${status} ${type}`).toBeGreaterThan(0);
        }
      }
    }
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s is valid', (_name, c) => {
    const validate = contract.validatorAt(c.pointer);
    expect(validate(c.value), describeErrors(validate.errors)).toBe(true);
  });
});

describe('schema examples', () => {
  const cases = Object.entries(contract.spec.components.schemas).flatMap(([name, schema]) =>
    ((schema.examples as unknown[] | undefined) ?? []).map((value, i) => [`${name} #${i}`, name, value] as const),
  );
  it.each(cases)('%s is valid', (_label, name, value) => {
    const validate = contract.schemaValidator(name);
    expect(validate(value), describeErrors(validate.errors)).toBe(true);
  });
});
