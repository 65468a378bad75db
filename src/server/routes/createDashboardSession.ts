/** POST /dashboard/api/session — the admin token in, a session cookie out. */
import type { components } from '../../../generated/admin/schema.d.ts';
import { tokensMatch } from '../dashboard/admin-token.ts';
import { sessionCookie } from '../dashboard/session-cookie.ts';
import { unauthenticated } from '../domain/errors.ts';
import type { Handler } from '../context.ts';

type DashboardSignInRequest = components['schemas']['DashboardSignInRequest'];

const WRONG_ADMIN_TOKEN = 'That is not the admin token.';

export const createDashboardSession: Handler = async (request, reply, { admin }) => {
  const { token } = request.body as DashboardSignInRequest;
  admin.throttle.check(request.ip);
  if (!tokensMatch(token.trim(), admin.token)) {
    admin.throttle.failed(request.ip);
    throw unauthenticated(WRONG_ADMIN_TOKEN);
  }
  admin.throttle.succeeded(request.ip);
  const cookie = sessionCookie(await admin.sessions.open(), request.protocol === 'https');
  return reply.code(204).header('set-cookie', cookie).header('cache-control', 'no-store').send();
};
