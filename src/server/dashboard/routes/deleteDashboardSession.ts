/** DELETE /dashboard/api/session — ends the cookie's session and clears the cookie. */
import { HttpError } from '../../http-error.ts';
import { CROSS_ORIGIN, fromOwnOrigin } from '../access.ts';
import { sessionCookie, sessionIdFrom } from '../sessions.ts';
import type { DashboardHandler } from './types.ts';

export const deleteDashboardSession: DashboardHandler = async (request, reply, { sessions }) => {
  if (!fromOwnOrigin(request)) throw new HttpError(403, CROSS_ORIGIN);
  sessions.close(sessionIdFrom(request.headers.cookie));
  return reply.code(204).header('set-cookie', sessionCookie('', request.protocol === 'https')).send();
};
