/**
 * The operations the suite checks: every operation of the contract except those that belong to the
 * reference implementation itself (`x-conformance: reference` on the operation, such as its dashboard),
 * which another gateway has no reason to offer.
 */
import { canonicalPointer, operations, type Operation } from '../contract/index.ts';

export const checkedOperations: readonly Operation[] = operations.filter(
  (op) => (op.raw as unknown as Record<string, unknown>)['x-conformance'] !== 'reference',
);

/** Whether the operation answers with images (its success is an `ImageResult`), which spend the daily quota. */
export function isImageOperation(op: Operation): boolean {
  if (!op.responses['200']?.content?.['application/json']) return false;
  return canonicalPointer(`${op.pointer}/responses/200/content/application~1json/schema`) === '/components/schemas/ImageResult';
}
