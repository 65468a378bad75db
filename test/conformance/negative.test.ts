/** The generator of invalid requests: every case is invalid by the contract, each kind is there, and a seed reproduces. */
import { describe, expect, it } from 'vitest';
import { contract } from '../../src/contract/index.ts';
import { negativeCases, UNKNOWN_PROPERTY } from '../../src/conformance/negative.ts';
import { requestExamples } from '../../src/conformance/examples.ts';

function casesOf(operationId: string, seed = 1) {
  const op = contract.getOperation(operationId);
  const example = requestExamples(contract, op)[0]!;
  return negativeCases(contract, op, example, seed);
}

describe('negativeCases', () => {
  it('starts from valid examples and yields only requests the contract rejects', () => {
    for (const op of contract.operations) {
      const example = requestExamples(contract, op)[0];
      if (!example?.body) continue;
      expect(contract.validateRequestBody(op.operationId, example.body).ok, op.operationId).toBe(true);
      const cases = negativeCases(contract, op, example, 7);
      expect(cases.length, op.operationId).toBeGreaterThan(0);
      for (const c of cases) {
        const bodyOk = contract.validateRequestBody(op.operationId, c.body).ok;
        const queryOk = contract.validateParameters(op.operationId, 'query', c.query).ok;
        expect(bodyOk && queryOk, `${op.operationId} ${c.slug}`).toBe(false);
      }
    }
  });

  it('removes required fields, changes types, crosses bounds, breaks enums and patterns', () => {
    const image = casesOf('createImage').map((c) => c.slug);
    expect(image).toEqual(expect.arrayContaining([
      'required-prompt', 'type-prompt', 'bound-prompt-minLength', 'bound-size-pattern',
      'bound-n-minimum', 'bound-n-maximum', 'query-required-model',
    ]));
    const edit = casesOf('editImage');
    expect(edit.find((c) => c.slug === 'enum-size')?.body).toMatchObject({ size: 'conformance-not-in-enum' });
    const chat = casesOf('createChatCompletion');
    expect(chat.find((c) => c.slug === 'bound-temperature-maximum')?.body).toMatchObject({ temperature: 2.1 });
    expect(chat.find((c) => c.slug === 'bound-temperature-minimum')?.body).toMatchObject({ temperature: -0.1 });
    expect(chat.find((c) => c.slug === 'bound-messages-minItems')?.body).toMatchObject({ messages: [] });
  });

  it('carries the message the contract fixes for a missing field', () => {
    const missingImage = casesOf('editImage').find((c) => c.slug === 'required-image');
    expect(missingImage?.message).toBe('Image is required for editing.');
    expect(missingImage?.body).not.toHaveProperty('image');
  });

  it('marks the unknown property of a closed body as a reference decision (D18), and leaves open bodies alone', () => {
    const unknown = casesOf('createImage').find((c) => c.slug === 'unknown-property');
    expect(unknown?.reference).toBe(true);
    expect(unknown?.body).toHaveProperty(UNKNOWN_PROPERTY, true);
    expect(casesOf('createChatCompletion').some((c) => c.slug.startsWith('unknown-property'))).toBe(false);
  });

  it('points each case at the schema keyword it breaks', () => {
    const max = casesOf('createChatCompletion').find((c) => c.slug === 'bound-temperature-maximum');
    expect(max?.rule).toBe('#/components/schemas/Temperature/maximum');
  });

  it('is deterministic for a seed', () => {
    expect(casesOf('createTextCompletion', 3)).toEqual(casesOf('createTextCompletion', 3));
    const typesFor = (seed: number) => casesOf('createTextCompletion', seed).filter((c) => c.slug.startsWith('type-')).map((c) => JSON.stringify(c.body));
    const seeds = [1, 2, 3, 4, 5, 6].map(typesFor).map((x) => x.join());
    expect(new Set(seeds).size).toBeGreaterThan(1);
  });
});
