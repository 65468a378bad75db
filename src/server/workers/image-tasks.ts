/** The image engine's tasks, as an image worker runs them (engine-worker.ts). */
export { generateImages as generate, editImageInputs as edit } from '../domain/engine/images/index.ts';
