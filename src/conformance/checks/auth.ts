/**
 * Authentication on every operation, from its `security`: no key, an unknown key, a malformed header,
 * Bearer where the contract allows it (works) and where it does not (401, D14); where the operation takes
 * Anthropic's `anthropic-version` header, every version the SDKs send, and none (D27). Each request is
 * otherwise the operation's valid example, so the key is the only thing that can be wrong.
 */
import { acceptsScheme, isPublic, type Operation } from '../../contract/index.ts';
import { checkedOperations } from '../scope.ts';
import type { Check, Tester } from '../check.ts';
import { apiKeyHeader, bearerSchemeName, keyHeaders } from '../keys.ts';
import { linkTo, withLinkedParameters } from '../links.ts';
import { expectSuccess, expectUnauthorized, SPEC } from '../expectations.ts';
import { validRequest } from '../requests.ts';

/** A key no implementation has issued. */
export const UNKNOWN_KEY = 'sk-conformance-unknown-key-0000';

export function authChecks(): Check[] {
  return checkedOperations.flatMap((op) => [
    ...(isPublic(op) ? publicChecks(op) : protectedChecks(op)),
    ...(op.parameters.some((p) => p.in === 'header' && p.name === 'anthropic-version') ? [anthropicVersions(op)] : []),
    ...(linkTo(op) ? [otherKeys(op)] : []),
  ]);
}

/** D29: what one key stored, another key cannot reach: 404, as if it did not exist. */
function otherKeys(op: Operation): Check {
  return check(op, 'other-key', "another key's stored response → 404, as for one that does not exist", { stateful: true }, async (t) => {
    const [owner, other] = [t.ctx.keys.best(), t.ctx.keys.keys.find((k) => k.key !== t.ctx.keys.best()?.key)];
    if (!owner || !other) return t.skip('needs two keys (--key tier=sk-… twice)');
    const req = await withLinkedParameters(t.ctx, validRequest(t, op), owner.key, (r) => t.send(r));
    if (typeof req === 'string') return t.skip(req);
    const ex = await t.send({ ...req, headers: { ...req.headers, ...keyHeaders(other.key) } });
    if (t.status(ex, 404, 'D29: stored responses are private to their key')) t.shape(op, ex);
  });
}

/** The versions Anthropic's SDKs send: 0.x and Claude Code, then 1.x. */
const ANTHROPIC_VERSIONS = ['2023-06-01', '2026-10-21'];

function anthropicVersions(op: Operation): Check {
  return check(op, 'anthropic-version', `anthropic-version ${ANTHROPIC_VERSIONS.join(' or ')}, or none → a success`, {}, async (t) => {
    const base = validRequest(t, op);
    for (const version of [...ANTHROPIC_VERSIONS, undefined]) {
      const headers = { ...base.headers };
      delete headers['anthropic-version'];
      if (version !== undefined) headers['anthropic-version'] = version;
      const what = version === undefined ? 'without anthropic-version' : `anthropic-version ${version}`;
      expectSuccess(t, op, await t.send({ ...base, headers }), 'D27: anthropic-version', what);
    }
  });
}

function check(op: Operation, slug: string, title: string, extra: Partial<Check>, run: (t: Tester) => Promise<void>): Check {
  return { id: `${op.operationId}/auth/${slug}`, operationId: op.operationId, family: 'auth', title, ...extra, run };
}

/** The valid request with its auth headers replaced. */
function withAuth(t: Tester, op: Operation, headers: Record<string, string>) {
  const req = validRequest(t, op, undefined, { withKey: true, keyOptional: true });
  const rest = Object.fromEntries(Object.entries(req.headers ?? {}).filter(([k]) => k.toLowerCase() !== apiKeyHeader));
  return { ...req, headers: { ...rest, ...headers } };
}

function bestKey(t: Tester): string {
  const best = t.ctx.keys.best();
  if (!best) t.skip('no key given (--key tier=sk-…)');
  return best.key;
}

function publicChecks(op: Operation): Check[] {
  return [
    check(op, 'no-key', 'no key → success (public operation)', {}, async (t) => {
      const req = validRequest(t, op);
      expectSuccess(t, op, await t.send(req), `#${op.pointer}/security`, 'without a key');
    }),
    check(op, 'valid-key', 'a valid key → success', {}, async (t) => {
      expectSuccess(t, op, await t.send(validRequest(t, op, undefined, { withKey: true })), `#${op.pointer}/security`, 'with a valid key');
    }),
    // D13: a key that is sent but unknown is refused even where none is needed.
    check(op, 'unknown-key', 'an unknown key → 401 Invalid API Key. (D13)', { reference: true, stateful: true }, async (t) => {
      expectUnauthorized(t, op, await t.send(withAuth(t, op, { [apiKeyHeader]: UNKNOWN_KEY })), 'an unknown key');
    }),
  ];
}

function protectedChecks(op: Operation): Check[] {
  const checks = [
    check(op, 'no-key', 'no key → 401 Invalid API Key.', {}, async (t) => {
      expectUnauthorized(t, op, await t.send(withAuth(t, op, {})), 'without a key');
    }),
    check(op, 'unknown-key', 'an unknown key → 401 Invalid API Key.', { stateful: true }, async (t) => {
      expectUnauthorized(t, op, await t.send(withAuth(t, op, { [apiKeyHeader]: UNKNOWN_KEY })), 'an unknown key');
    }),
    check(op, 'empty-key', `an empty ${apiKeyHeader} header → 401`, {}, async (t) => {
      expectUnauthorized(t, op, await t.send(withAuth(t, op, { [apiKeyHeader]: '' })), `an empty ${apiKeyHeader}`);
    }),
    check(op, 'basic-auth', 'Authorization: Basic with a valid key → 401', {}, async (t) => {
      const basic = Buffer.from(`${bestKey(t)}:`).toString('base64');
      expectUnauthorized(t, op, await t.send(withAuth(t, op, { authorization: `Basic ${basic}` })), 'Basic credentials');
    }),
  ];
  if (bearerSchemeName && acceptsScheme(op, bearerSchemeName)) {
    checks.push(
      check(op, 'bearer', 'Authorization: Bearer with a valid key → success', {}, async (t) => {
        const ex = await t.send(withAuth(t, op, { authorization: `Bearer ${bestKey(t)}` }));
        expectSuccess(t, op, ex, SPEC.auth, 'Bearer, which this operation accepts');
      }),
      check(op, 'bearer-unknown', 'Authorization: Bearer with an unknown key → 401', { stateful: true }, async (t) => {
        expectUnauthorized(t, op, await t.send(withAuth(t, op, { authorization: `Bearer ${UNKNOWN_KEY}` })), 'Bearer with an unknown key');
      }),
    );
  } else if (bearerSchemeName) {
    checks.push(
      check(op, 'bearer-refused', 'Authorization: Bearer with a valid key → 401 (Bearer is not accepted here, D14)', {}, async (t) => {
        const ex = await t.send(withAuth(t, op, { authorization: `Bearer ${bestKey(t)}` }));
        expectUnauthorized(t, op, ex, 'Bearer on an operation that does not accept it');
      }),
    );
  }
  return checks;
}
