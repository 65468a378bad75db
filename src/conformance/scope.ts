/**
 * What the suite checks: every operation of the public contract (the reference implementation's own
 * admin API is a description of its own, which another gateway has no reason to offer).
 */
import { contract, type Operation } from '../contract/index.ts';

export const checkedOperations: readonly Operation[] = contract.operations;

/** Whether the operation answers with images (its success is an `ImageResult`), which spend the daily quota. */
export function isImageOperation(op: Operation): boolean {
  if (!op.responses['200']?.content?.['application/json']) return false;
  return contract.canonicalPointer(`${op.pointer}/responses/200/content/application~1json/schema`) === '/components/schemas/ImageResult';
}
