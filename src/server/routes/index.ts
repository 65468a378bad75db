/**
 * Every operation's handler, by operationId: the public contract's and the admin API's. The descriptions say
 * which path and method each one serves; the pipeline (http/pipeline.ts) refuses to start when one is missing.
 */
import type { Handler } from '../context.ts';
import { createApiKey } from './createApiKey.ts';
import { createChatCompletion } from './createChatCompletion.ts';
import { createDashboardSession } from './createDashboardSession.ts';
import { createImage } from './createImage.ts';
import { createMessage } from './createMessage.ts';
import { createResponse } from './createResponse.ts';
import { createTextCompletion } from './createTextCompletion.ts';
import { deleteDashboardSession } from './deleteDashboardSession.ts';
import { deleteResponse } from './deleteResponse.ts';
import { getResponse } from './getResponse.ts';
import { editImage } from './editImage.ts';
import { countMessageTokens } from './countMessageTokens.ts';
import { listApiKeys } from './listApiKeys.ts';
import { listModels } from './listModels.ts';
import { listUpstreams } from './listUpstreams.ts';
import { revokeApiKey } from './revokeApiKey.ts';

export const handlers: Record<string, Handler> = {
  createTextCompletion,
  createChatCompletion,
  createResponse,
  getResponse,
  deleteResponse,
  createMessage,
  countMessageTokens,
  createImage,
  editImage,
  listModels,
  createDashboardSession,
  deleteDashboardSession,
  listApiKeys,
  createApiKey,
  revokeApiKey,
  listUpstreams,
};
