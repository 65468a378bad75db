import { gatewayDocument } from '../../../../contract/gateway-document.ts';
import { invalidRequest } from '../../errors.ts';

const schemas = gatewayDocument.components.schemas as Record<string, { maximum?: number; properties?: Record<string, Record<string, unknown>> }>;

/** Largest width or height of a source image, a mask or a result (decision D9). */
export const MAX_SIDE = 4096;
/** Most images per request (decision D9): the contract's `ImageCount.maximum`. */
export const MAX_COUNT: number = schemas.ImageCount!.maximum!;

/**
 * Sizes image-gen supports for generation (decision D12). The contract's pattern accepts any
 * `<w>x<h>`; the reference model's own list is the `x-reference-sizes` of that property.
 */
export const generationSizes: readonly string[] = Object.freeze(
  schemas.ImageGenerationRequest!.properties!.size!['x-reference-sizes'] as string[],
);

/**
 * Guards the engine against sizes and counts the server should already have refused, so a bad
 * call is a 400 and never a crash or an enormous allocation.
 *
 * @example
 * checkRequest(1024, 1024, 4); // fine
 * checkRequest(0, 1024, 1); // throws an invalid_request error
 */
export function checkRequest(width: number, height: number, n: number): void {
  checkSize(width, height);
  if (!Number.isInteger(n) || n < 1 || n > MAX_COUNT) {
    throw invalidRequest(`'n' must be a whole number from 1 to ${MAX_COUNT}; got ${n}.`);
  }
}

/**
 * Guards a picture's size alone (for work that makes no new picture, such as preparing an edit for an
 * upstream), as `checkRequest` does.
 *
 * @example
 * checkSize(512, 512); // fine
 */
export function checkSize(width: number, height: number): void {
  for (const [name, side] of [['width', width], ['height', height]] as const) {
    if (!Number.isInteger(side) || side < 1 || side > MAX_SIDE) {
      throw invalidRequest(`The image ${name} must be a whole number from 1 to ${MAX_SIDE}; got ${side}.`);
    }
  }
}
