/**
 * What the suite checks in a description: every operation of it (the reference implementation's own admin
 * API is a description of its own, which another gateway has no reason to offer, and is never checked).
 */
import type { Contract, Operation } from '../contract/index.ts';

/** Whether the operation answers with images (its success is an `ImageResult`), which spend the daily quota. */
export function isImageOperation(contract: Contract, op: Operation): boolean {
  if (!op.responses['200']?.content?.['application/json']) return false;
  return contract.canonicalPointer(`${op.pointer}/responses/200/content/application~1json/schema`) === '/components/schemas/ImageResult';
}

/** The operations that answer with images. */
export function imageOperations(contract: Contract): Operation[] {
  return contract.operations.filter((op) => isImageOperation(contract, op));
}

/** The operation that lists the models, when the description has one. */
export function listingOperation(contract: Contract): Operation | undefined {
  return contract.operations.find((op) => op.operationId === 'listModels');
}
