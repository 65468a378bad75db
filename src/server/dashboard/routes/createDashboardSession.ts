/** POST /dashboard/api/session — the admin token in, a session cookie out. */
import type { components } from '../../../../generated/schema.d.ts';
import { HttpError } from '../../http-error.ts';
import { tokensMatch } from '../admin-token.ts';
import { sessionCookie } from '../sessions.ts';
import type { DashboardHandler } from './types.ts';

type DashboardSignInRequest = components['schemas']['DashboardSignInRequest'];

export const WRONG_ADMIN_TOKEN = 'That is not the admin token.';

export const createDashboardSession: DashboardHandler = async (request, reply, { gateway, adminToken, sessions }) => {
  const { token } = gateway.validate.body<DashboardSignInRequest>('createDashboardSession', request.body);
  if (!tokensMatch(token.trim(), adminToken)) throw new HttpError(401, WRONG_ADMIN_TOKEN);
  const cookie = sessionCookie(sessions.open(), request.protocol === 'https');
  return reply.code(204).header('set-cookie', cookie).header('cache-control', 'no-store').send();
};
