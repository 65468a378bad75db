/** DELETE /dashboard/api/session — ends the cookie's session and clears the cookie. */
import { CROSS_ORIGIN, fromOwnOrigin } from '../dashboard/access.ts';
import { sessionCookie, sessionIdFrom } from '../dashboard/session-cookie.ts';
import { forbidden } from '../domain/errors.ts';
import type { Handler } from '../context.ts';

export const deleteDashboardSession: Handler = async (request, reply, { admin }) => {
  if (!fromOwnOrigin(request)) throw forbidden(CROSS_ORIGIN);
  await admin.sessions.close(sessionIdFrom(request.headers.cookie));
  return reply.code(204).header('set-cookie', sessionCookie('', request.protocol === 'https')).send();
};
