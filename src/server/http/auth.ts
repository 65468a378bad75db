/**
 * Authentication, as each operation's `security` in the contract lists it. Every security scheme the
 * descriptions name has a `Credential` here (the API key in `x-api-key` or `Authorization: Bearer`, the
 * admin token, the dashboard session); the one `onRequest` hook tries an operation's alternatives in the
 * order the contract lists them, and the first credential the request carries decides: it is accepted, or
 * the request is refused. A public operation (`security: [{}]`) called without any is anonymous.
 */
import type { FastifyRequest } from 'fastify';
import { isPublic, type Operation } from '../../contract/index.ts';
import { INVALID_KEY, type KeyVerifier } from '../domain/keys.ts';
import { unauthenticated } from '../domain/errors.ts';
import type { ApiKeyRecord } from '../domain/store/index.ts';

export interface Credential {
  /** Whether the request carries this kind of credential at all (the header is there, the cookie is set). */
  sent(request: FastifyRequest): boolean;
  /** Checks it: the caller's key record (null when the caller is not a key, as the admin); throws when refused. */
  check(request: FastifyRequest): Promise<ApiKeyRecord | null>;
  /** Why an operation that needs this credential refuses a request that sends none. */
  missing: string;
}

/** Credentials by the name of the security scheme they implement. */
export type Credentials = Record<string, Credential>;

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * The contract's `ApiKeyHeader` (`x-api-key`) and `BearerAuth` (`Authorization: Bearer`) schemes, both checked
 * against the keys the gateway issued.
 */
export function apiKeyCredentials(keys: KeyVerifier): Credentials {
  return {
    ApiKeyHeader: {
      sent: (request) => request.headers['x-api-key'] !== undefined,
      check: (request) => keys.verify(String(request.headers['x-api-key']).trim()),
      missing: INVALID_KEY,
    },
    BearerAuth: {
      sent: (request) => BEARER.test(request.headers.authorization ?? ''),
      check: (request) => keys.verify(BEARER.exec(request.headers.authorization!)![1]!),
      missing: INVALID_KEY,
    },
  };
}

/**
 * The authentication of one operation: who the caller is, a key record, or null (anonymous on a public
 * operation, or the admin). The credentials of each alternative are looked up once, here: a scheme that
 * nothing implements fails at start-up, not on a request.
 *
 * @example
 * const authenticate = authenticator(op, credentials);
 * request.apiKey = await authenticate(request);
 */
export function authenticator(op: Operation, credentials: Credentials): (request: FastifyRequest) => Promise<ApiKeyRecord | null> {
  const alternatives = op.security.filter((alternative) => alternative.length > 0).map((alternative) => alternative.map((scheme) => credentialFor(credentials, scheme)));
  const anonymous = isPublic(op);
  // Not public: every alternative names at least one scheme (isPublic), and the first one's is the refusal.
  const missing = anonymous ? '' : credentialFor(credentials, op.security[0]![0]!).missing;
  // Not an async function: the common case, one credential, hands on the verifier's own promise rather than
  // wrapping it in another (each layer is a promise and a turn of the microtask queue on every request).
  return (request) => {
    for (const needed of alternatives) {
      if (!needed.every((credential) => credential.sent(request))) continue;
      return needed.length === 1 ? needed[0]!.check(request) : checkAll(needed, request);
    }
    return anonymous ? Promise.resolve(null) : Promise.reject(unauthenticated(missing));
  };
}

/** An alternative naming several schemes: each is checked, and the last key record found is the caller's. */
async function checkAll(needed: Credential[], request: FastifyRequest): Promise<ApiKeyRecord | null> {
  let key: ApiKeyRecord | null = null;
  for (const credential of needed) key = (await credential.check(request)) ?? key;
  return key;
}

function credentialFor(credentials: Credentials, scheme: string): Credential {
  const credential = credentials[scheme];
  if (!credential) throw new Error(`The security scheme '${scheme}' has no credential check in the server.`);
  return credential;
}
