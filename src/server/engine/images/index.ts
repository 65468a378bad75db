/** The image engine of the reference server: generation, input decoding and edits, all with sharp. */
export { generateImages, type GenerationRequest } from './generate.ts';
export { decodeImageInput, type DecodedImage } from './decode.ts';
export { editImages, type EditRequest } from './edit.ts';
export { generationSizes, MAX_SIDE, MAX_COUNT } from './limits.ts';
