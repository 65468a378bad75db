/**
 * Who may use the dashboard: a request with the admin token in `x-admin-token`, or one carrying a valid
 * session cookie. A change made with the cookie must also come from the dashboard's own origin
 * (`Sec-Fetch-Site`, else `Origin`): SameSite=Strict keeps other sites out, but another port on the same
 * host is the same site.
 */
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../http-error.ts';
import { tokensMatch } from './admin-token.ts';
import { sessionIdFrom, type Sessions } from './sessions.ts';

export const ADMIN_REQUIRED = 'The admin token is missing or wrong. Send it as x-admin-token, or sign in at /dashboard.';
export const CROSS_ORIGIN = 'This change must come from the dashboard page itself (the request came from another origin).';

export type Credential = 'token' | 'session';

export interface AdminAccess {
  /** How the request proves it is the admin, or undefined. A wrong `x-admin-token` fails even beside a good cookie. */
  credential(request: FastifyRequest): Credential | undefined;
  /** Throws 401 without a credential, and 403 for a cookie-authenticated change from another origin. */
  require(request: FastifyRequest): void;
}

/**
 * @example
 *   const access = createAdminAccess('s3cret', sessions);
 *   app.addHook('onRequest', async (request) => access.require(request));
 */
export function createAdminAccess(token: string, sessions: Sessions): AdminAccess {
  function credential(request: FastifyRequest): Credential | undefined {
    const header = request.headers['x-admin-token'];
    if (header !== undefined) return typeof header === 'string' && tokensMatch(header.trim(), token) ? 'token' : undefined;
    return sessions.isValid(sessionIdFrom(request.headers.cookie)) ? 'session' : undefined;
  }

  return {
    credential,
    require(request) {
      const how = credential(request);
      if (!how) throw new HttpError(401, ADMIN_REQUIRED);
      if (how === 'session' && isChange(request) && !fromOwnOrigin(request)) throw new HttpError(403, CROSS_ORIGIN);
    },
  };
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
