/**
 * Authentication on every operation, from its `security`: no key, an unknown key, an empty one, Basic
 * credentials, Bearer where the description allows it beside another way (works) and where it does not (401,
 * D14); every value the description gives an optional or required parameter (`anthropic-version`, `?beta`),
 * and none where it is optional (D27); another key's stored response (D29). Each request is otherwise the
 * operation's valid example, so the key is the only thing that can be wrong.
 */
import { acceptsScheme, isPublic, type Operation, type ParameterObject } from '../../contract/index.ts';
import { stated, type Check, type RunContext, type Tester } from '../check.ts';
import { parameterValues } from '../examples.ts';
import { linkTo, withLinkedParameters } from '../links.ts';
import { expectSuccess, expectUnauthorized } from '../expectations.ts';
import { validRequest } from '../requests.ts';

/** A key no implementation has issued. */
export const UNKNOWN_KEY = 'sk-conformance-unknown-key-0000';

type Maker = (slug: string, title: string, extra: Partial<Check>, run: (t: Tester) => Promise<void>) => Check[];

export function authChecks(ctx: RunContext): Check[] {
  return ctx.contract.operations.flatMap((op) => {
    const check = (rule: string): Maker => (slug, title, extra, run) =>
      stated(ctx, rule, { id: `${op.operationId}/auth/${slug}`, operationId: op.operationId, family: 'auth', title, ...extra, run });
    return [
      ...(isPublic(op) ? publicChecks(op, check) : protectedChecks(ctx, op, check('authentication'))),
      ...op.parameters.filter((p) => (p.in === 'header' || p.in === 'query') && parameterValues(p).length > 0 && !isModel(p)).flatMap((p) => parameterChecks(op, p, check('header-values'))),
      ...(linkTo(ctx.contract, op) ? otherKeys(op, check('stored-private')) : []),
    ];
  });
}

function isModel(p: ParameterObject): boolean {
  return p.name === 'model';
}

/** D29: what one key stored, another key cannot reach: 404, as if it did not exist. */
function otherKeys(op: Operation, check: Maker): Check[] {
  return check('other-key', "another key's stored response → 404, as for one that does not exist", { stateful: true }, async (t) => {
    const [owner, other] = [t.ctx.keys.best(), t.ctx.keys.keys.find((k) => k.key !== t.ctx.keys.best()?.key)];
    if (!owner || !other) return t.skip('needs two keys (--key twice)');
    const req = await withLinkedParameters(t.ctx, validRequest(t, op), owner.key, (r) => t.send(r));
    if (typeof req === 'string') return t.skip(req);
    const ex = await t.send({ ...req, headers: { ...withoutKey(t, req.headers), ...t.ctx.credentials.headers(other.key, op) } });
    if (t.status(ex, 404, 'stored-private')) t.shape(op, ex);
  });
}

/**
 * Each value the description gives a parameter (the `anthropic-version`s the SDKs send, `?beta=true` as
 * Claude Code sends it) is accepted; so is the request without it, where it is optional.
 */
function parameterChecks(op: Operation, p: ParameterObject, check: Maker): Check[] {
  const values = parameterValues(p);
  const title = `${p.name} ${values.join(' or ')}${p.required ? '' : ', or none'} → a success`;
  return check(p.name, title, {}, async (t) => {
    const base = validRequest(t, op);
    for (const value of [...values, ...(p.required ? [] : [undefined])]) {
      const headers = { ...base.headers };
      const query = { ...base.query };
      delete headers[p.name.toLowerCase()];
      delete query[p.name];
      if (value !== undefined) (p.in === 'header' ? headers : query)[p.in === 'header' ? p.name.toLowerCase() : p.name] = value;
      const what = value === undefined ? `without ${p.name}` : `${p.name} ${value}`;
      expectSuccess(t, op, await t.send({ ...base, headers, query }), `header-values: ${p.name}`, what);
    }
  });
}

/** The request's headers without the key, in either way it can be sent. */
function withoutKey(t: Tester, headers: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).filter(([k]) => !t.ctx.credentials.isCredential(k)));
}

/**
 * The valid request with its credentials replaced. Only with a key given: without one, whether the server
 * checks keys at all is not known (a local inference server often takes none), so the check skips.
 */
function withAuth(t: Tester, op: Operation, headers: Record<string, string>) {
  if (t.ctx.keys.size === 0) t.skip(KEYLESS);
  const req = validRequest(t, op, undefined, { withKey: true, keyOptional: true });
  return { ...req, headers: { ...withoutKey(t, req.headers), ...headers } };
}

/** Why a check of authentication skips without a key given. */
const KEYLESS = 'no key given: whether the server checks keys is not known (--key KEY)';

function bestKey(t: Tester): string {
  const best = t.ctx.keys.best();
  if (!best) t.skip(KEYLESS);
  return best.key;
}

function publicChecks(op: Operation, check: (rule: string) => Maker): Check[] {
  return [
    ...check('authentication')('no-key', 'no key → success (public operation)', {}, async (t) => {
      const req = validRequest(t, op);
      expectSuccess(t, op, await t.send(req), `#${op.pointer}/security`, 'without a key');
    }),
    ...check('authentication')('valid-key', 'a valid key → success', {}, async (t) => {
      expectSuccess(t, op, await t.send(validRequest(t, op, undefined, { withKey: true })), `#${op.pointer}/security`, 'with a valid key');
    }),
    // D13: a key that is sent but unknown is refused even where none is needed.
    ...check('unknown-key-public')('unknown-key', 'an unknown key → 401 Invalid API Key. (D13)', { stateful: true }, async (t) => {
      expectUnauthorized(t, op, await t.send(withAuth(t, op, t.ctx.credentials.headers(UNKNOWN_KEY, op))), 'an unknown key');
    }),
  ];
}

function protectedChecks(ctx: RunContext, op: Operation, check: Maker): Check[] {
  const { credentials } = ctx;
  const bearerFirst = credentials.bearerFirst(op);
  // The empty key goes the operation's first way: an empty x-api-key, or `Authorization: Bearer ` with nothing after it.
  const empty = bearerFirst || !credentials.apiKeyHeader ? { authorization: 'Bearer ' } : { [credentials.apiKeyHeader]: '' };
  const emptyName = bearerFirst || !credentials.apiKeyHeader ? 'an empty Bearer token' : `an empty ${credentials.apiKeyHeader} header`;
  const checks = [
    ...check('no-key', 'no key → 401', {}, async (t) => {
      expectUnauthorized(t, op, await t.send(withAuth(t, op, {})), 'without a key');
    }),
    ...check('unknown-key', 'an unknown key → 401', { stateful: true }, async (t) => {
      expectUnauthorized(t, op, await t.send(withAuth(t, op, t.ctx.credentials.headers(UNKNOWN_KEY, op))), 'an unknown key');
    }),
    ...check('empty-key', `${emptyName} → 401`, {}, async (t) => {
      expectUnauthorized(t, op, await t.send(withAuth(t, op, empty)), emptyName);
    }),
    ...check('basic-auth', 'Authorization: Basic with a valid key → 401', {}, async (t) => {
      const basic = Buffer.from(`${bestKey(t)}:`).toString('base64');
      expectUnauthorized(t, op, await t.send(withAuth(t, op, { authorization: `Basic ${basic}` })), 'Basic credentials');
    }),
  ];
  const bearer = credentials.bearerScheme;
  if (bearer && acceptsScheme(op, bearer) && !bearerFirst) {
    checks.push(
      ...check('bearer', 'Authorization: Bearer with a valid key → success', {}, async (t) => {
        const ex = await t.send(withAuth(t, op, { authorization: `Bearer ${bestKey(t)}` }));
        expectSuccess(t, op, ex, 'authentication', 'Bearer, which this operation accepts');
      }),
      ...check('bearer-unknown', 'Authorization: Bearer with an unknown key → 401', { stateful: true }, async (t) => {
        expectUnauthorized(t, op, await t.send(withAuth(t, op, { authorization: `Bearer ${UNKNOWN_KEY}` })), 'Bearer with an unknown key');
      }),
    );
  } else if (bearer && !acceptsScheme(op, bearer)) {
    checks.push(
      ...check('bearer-refused', 'Authorization: Bearer with a valid key → 401 (Bearer is not accepted here, D14)', {}, async (t) => {
        const ex = await t.send(withAuth(t, op, { authorization: `Bearer ${bestKey(t)}` }));
        expectUnauthorized(t, op, ex, 'Bearer on an operation that does not accept it');
      }),
    );
  }
  return checks;
}
