/** The image engine's tasks, as an image worker runs them (engine-worker.ts). */
import sharp from 'sharp';

// Pictures are never decoded twice, so libvips's cache of recent operations would only hold memory (tens of
// MB per 4096² picture); and parallelism comes from the pool's workers, not from libvips's threads in each.
sharp.cache(false);
sharp.concurrency(1);

export { generateImages as generate, editImageInputs as edit, prepareOpenAiEdit as prepareEdit } from '../domain/engine/images/index.ts';
