/** Dashboard handlers by operationId: the contract (tag `Dashboard`) says which path and method each serves. */
import { createApiKey } from './createApiKey.ts';
import { createDashboardSession } from './createDashboardSession.ts';
import { deleteDashboardSession } from './deleteDashboardSession.ts';
import { listApiKeys } from './listApiKeys.ts';
import { revokeApiKey } from './revokeApiKey.ts';
import type { DashboardHandler } from './types.ts';

export const dashboardHandlers: Record<string, DashboardHandler> = {
  createDashboardSession,
  deleteDashboardSession,
  listApiKeys,
  createApiKey,
  revokeApiKey,
};
