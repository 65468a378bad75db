/**
 * The image engine of the reference server: paints the pictures behind `POST /v1/generation/image`
 * and `POST /v1/generation/image/edit`, and prepares an edit's pictures for a model upstream at OpenAI.
 * HTTP, auth and quotas live in the server; this folder only turns prompts and images into PNGs, and bad
 * images into invalid_request errors.
 */
export { generateImages, type GenerationRequest } from './generate.ts';
export { editImageInputs, editImages, type EditRequest, type EncodedEditRequest } from './edit.ts';
export { prepareOpenAiEdit, type EditPreparation, type PreparedEdit } from './openai-edit.ts';
export { decodeImageInput, type DecodedImage, type ImageField } from './decode.ts';
export { generationSizes, MAX_SIDE, MAX_COUNT } from './limits.ts';
