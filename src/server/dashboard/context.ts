/** What every dashboard handler gets: the gateway's context plus the admin token, sessions and access rules. */
import type { GatewayContext } from '../context.ts';
import type { AdminAccess } from './access.ts';
import type { Sessions } from './sessions.ts';

export interface DashboardContext {
  gateway: GatewayContext;
  adminToken: string;
  /** Whether demo keys are accepted; when not, the dashboard neither lists nor revokes them. */
  demoKeys: boolean;
  sessions: Sessions;
  access: AdminAccess;
}
