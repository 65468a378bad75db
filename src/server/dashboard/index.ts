/**
 * The reference implementation's dashboard (issue 7): a page at `/dashboard` where the admin lists,
 * creates and revokes API keys, and its operations under `/dashboard/api`, routed from the contract's
 * `Dashboard` tag like the `/v1` operations are. Access needs the admin token (or the session cookie
 * that signing in with it sets).
 */
import type { FastifyInstance } from 'fastify';
import { acceptsScheme, operations } from '../../contract/index.ts';
import type { GatewayContext } from '../context.ts';
import { createAdminAccess } from './access.ts';
import { generateAdminToken } from './admin-token.ts';
import type { DashboardContext } from './context.ts';
import { registerPages } from './pages.ts';
import { dashboardHandlers } from './routes/index.ts';
import { createSessions } from './sessions.ts';

export interface DashboardInfo {
  /** Where the page is served. */
  path: '/dashboard';
  adminToken: string;
  /** True when no token was configured and this one was made at start-up (so it should be printed). */
  adminTokenGenerated: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    dashboard: DashboardInfo;
  }
}

/**
 * Adds the dashboard's page and operations to the gateway and exposes `app.dashboard`.
 *
 * @example
 *   registerDashboard(app, context, { adminToken: process.env.GATEWAY_ADMIN_TOKEN, demoKeys: true });
 *   console.log(`Dashboard: /dashboard, admin token ${app.dashboard.adminToken}`);
 */
export function registerDashboard(
  app: FastifyInstance,
  gateway: GatewayContext,
  options: { adminToken?: string | undefined; demoKeys: boolean },
): DashboardInfo {
  const configured = options.adminToken?.trim();
  const adminToken = configured || generateAdminToken();
  const sessions = createSessions(gateway.now);
  const access = createAdminAccess(adminToken, sessions);
  const context: DashboardContext = { gateway, adminToken, demoKeys: options.demoKeys, sessions, access };

  for (const op of operations.filter((o) => o.tag === 'Dashboard')) {
    const handler = dashboardHandlers[op.operationId];
    if (!handler) throw new Error(`The contract's dashboard operation ${op.operationId} has no handler`);
    app.route({
      method: op.method.toUpperCase() as 'GET' | 'POST' | 'DELETE',
      url: op.path.replace(/\{(\w+)\}/g, ':$1'),
      config: { operationId: op.operationId },
      // The contract says which operations need the admin: those that accept the AdminToken scheme.
      ...(acceptsScheme(op, 'AdminToken') && { onRequest: async (request) => access.require(request) }),
      handler: (request, reply) => handler(request, reply, context),
    });
  }
  registerPages(app, access);

  const info: DashboardInfo = { path: '/dashboard', adminToken, adminTokenGenerated: !configured };
  app.decorate('dashboard', info);
  return info;
}
