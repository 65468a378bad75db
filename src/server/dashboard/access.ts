/**
 * Who may use the admin API: a request with the admin token in `x-admin-token` (scheme `AdminToken`), or one
 * carrying a valid session cookie (`AdminSession`). A wrong `x-admin-token` fails even beside a good cookie:
 * the token is tried first. A change made with the cookie must also come from the dashboard's own origin
 * (`Sec-Fetch-Site`, else `Origin`): SameSite=Strict keeps other sites out, but another port on the same host
 * is the same site.
 */
import type { FastifyRequest } from 'fastify';
import { forbidden, unauthenticated } from '../domain/errors.ts';
import type { Credentials } from '../http/auth.ts';
import { tokensMatch } from './admin-token.ts';
import type { Sessions } from '../domain/sessions.ts';
import { sessionIdFrom } from './session-cookie.ts';
import type { SignInThrottle } from './sign-in-throttle.ts';

/** What proves the admin: the token, the sessions it opened, and the throttle on wrong tokens. */
export interface AdminAccess {
  token: string;
  sessions: Sessions;
  throttle: SignInThrottle;
}

export const ADMIN_REQUIRED = 'The admin token is missing or wrong. Send it as x-admin-token, or sign in at /dashboard.';
export const CROSS_ORIGIN = 'This change must come from the dashboard page itself (the request came from another origin).';

/**
 * The admin API's security schemes.
 *
 * @example
 * const credentials = { ...apiKeyCredentials(keys), ...adminCredentials(admin) };
 */
export function adminCredentials({ token, sessions, throttle }: AdminAccess): Credentials {
  return {
    AdminToken: {
      sent: (request) => request.headers['x-admin-token'] !== undefined,
      async check(request) {
        const header = request.headers['x-admin-token'];
        throttle.check(request.ip);
        if (typeof header !== 'string' || !tokensMatch(header.trim(), token)) {
          throttle.failed(request.ip);
          throw unauthenticated(ADMIN_REQUIRED);
        }
        throttle.succeeded(request.ip);
        return null;
      },
      missing: ADMIN_REQUIRED,
    },
    AdminSession: {
      sent: (request) => sessionIdFrom(request.headers.cookie) !== undefined,
      async check(request) {
        if (!(await sessions.isValid(sessionIdFrom(request.headers.cookie)))) throw unauthenticated(ADMIN_REQUIRED);
        if (isChange(request) && !fromOwnOrigin(request)) throw forbidden(CROSS_ORIGIN);
        return null;
      },
      missing: ADMIN_REQUIRED,
    },
  };
}

/** Whether the request proves it is the admin (for the dashboard page, which shows the sign-in form otherwise). */
export async function isAdmin(request: FastifyRequest, credentials: Credentials): Promise<boolean> {
  for (const scheme of ['AdminToken', 'AdminSession']) {
    const credential = credentials[scheme]!;
    if (!credential.sent(request)) continue;
    try {
      await credential.check(request);
      return true;
    } catch {
      return false;
    }
  }
  return false;
}

function isChange(request: FastifyRequest): boolean {
  return !['GET', 'HEAD', 'OPTIONS'].includes(request.method);
}

/** Whether a browser says the request came from the page's own origin (requests from outside browsers pass). */
export function fromOwnOrigin(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin' || site === 'none';
  const origin = request.headers.origin;
  if (typeof origin === 'string') return origin === `${request.protocol}://${request.headers.host ?? ''}`;
  return true;
}
