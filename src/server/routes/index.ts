/** Handlers by operationId: the contract says which path and method each one serves. */
import { createChatCompletion } from './createChatCompletion.ts';
import { createImage } from './createImage.ts';
import { createTextCompletion } from './createTextCompletion.ts';
import { editImage } from './editImage.ts';
import { listModels } from './listModels.ts';
import type { Handler } from './types.ts';

export const handlers: Record<string, Handler> = {
  createTextCompletion,
  createChatCompletion,
  createImage,
  editImage,
  listModels,
};
