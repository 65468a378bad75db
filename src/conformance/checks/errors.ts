/**
 * Answers to requests no valid client sends: malformed JSON, another content type (D21), a body over the
 * size limit (D9), an unknown route or method (D21). Each is a 4xx `{error}`, never a 5xx.
 */
import { contract, type Operation } from '../../contract/index.ts';
import { keyHeaders } from '../keys.ts';
import { checkedOperations } from '../scope.ts';
import type { Check } from '../check.ts';
import { expectClientError, expectErrorBody, validRequest } from './common.ts';

/** D9: bodies up to 20 MiB are accepted. */
export const BODY_LIMIT = 20 * 1024 * 1024;

export const UNKNOWN_ROUTE = '/v1/conformance-unknown-route';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export function errorChecks(): Check[] {
  const checks: Check[] = [
    {
      id: 'general/errors/unknown-route',
      operationId: 'general',
      family: 'errors',
      title: `an unknown route (GET ${UNKNOWN_ROUTE}) → 404 {error} (D21; core: 4xx)`,
      async run(t) {
        const best = t.ctx.keys.best();
        const ex = await t.send({ method: 'GET', path: UNKNOWN_ROUTE, headers: keyHeaders(best?.key) });
        if (!t.ctx.profile.reference) {
          const status = ex.response?.status ?? 0;
          t.expect(status >= 400 && status < 500, `expected a 4xx, got ${status || ex.error}`, 'HTTP: unknown route', ex);
        } else if (t.status(ex, 404, 'D21')) expectErrorBody(t, ex);
      },
    },
  ];
  const paths = new Set<string>();
  for (const op of checkedOperations) {
    const hasBody = op.requestContentTypes.includes('application/json');
    if (hasBody) checks.push(malformedJson(op), otherContentType(op), tooLarge(op));
    if (!paths.has(op.path)) checks.push(wrongMethod(op));
    paths.add(op.path);
  }
  return checks;
}

/** D21: a known route with a method it does not have → 405 `{error}` with `Allow`. */
function wrongMethod(op: Operation): Check {
  const defined = Object.keys(contract.spec.paths[op.path] ?? {}).filter((m) => METHODS.includes(m));
  const method = METHODS.find((m) => !defined.includes(m)) ?? 'patch';
  return {
    id: `${op.operationId}/errors/wrong-method`,
    operationId: op.operationId,
    family: 'errors',
    title: `${method.toUpperCase()} ${op.path} → 405 {error} with Allow (D21)`,
    reference: true,
    async run(t) {
      const best = t.ctx.keys.best();
      const ex = await t.send({ method, path: op.path, headers: keyHeaders(best?.key) });
      if (!t.status(ex, 405, 'D21')) return;
      expectErrorBody(t, ex);
      const allow = (ex.response?.headers.allow ?? '').toLowerCase().split(/\s*,\s*/);
      const missing = defined.filter((m) => !allow.includes(m));
      t.expect(missing.length === 0, `the Allow header ${JSON.stringify(ex.response?.headers.allow)} does not list ${missing.join(', ').toUpperCase()}`, 'D21', ex);
    },
  };
}

/** D21: a body that is not `application/json` → 400 naming the content type received. */
function otherContentType(op: Operation): Check {
  const sent = 'text/plain';
  return {
    id: `${op.operationId}/errors/content-type`,
    operationId: op.operationId,
    family: 'errors',
    title: `a ${sent} body → 400 naming ${sent} (D21)`,
    reference: true,
    async run(t) {
      const req = validRequest(t, op);
      const ex = await t.send({ ...req, json: undefined, raw: JSON.stringify(req.json), headers: { ...req.headers, 'content-type': sent } });
      if (!expectClientError(t, op, ex, 400, 'D21')) return;
      const message = String((ex.response?.json as { error?: unknown })?.error ?? '');
      t.expect(message.includes(sent), `the message ${JSON.stringify(message)} does not name ${sent}`, 'D21', ex);
    },
  };
}

function malformedJson(op: Operation): Check {
  return {
    id: `${op.operationId}/errors/malformed-json`,
    operationId: op.operationId,
    family: 'errors',
    title: 'malformed JSON → 4xx {error}',
    async run(t) {
      const req = validRequest(t, op);
      const ex = await t.send({ ...req, json: undefined, raw: '{"conformance": ', headers: { ...req.headers, 'content-type': 'application/json' } });
      // Prism answers malformed JSON with its own error shape: only the status says something there.
      if (!t.ctx.profile.stateful) t.expect((ex.response?.status ?? 0) >= 400 && (ex.response?.status ?? 0) < 500, `expected a 4xx, got ${ex.response?.status}`, 'HTTP', ex);
      else expectClientError(t, op, ex, 400, 'malformed JSON');
    },
  };
}

function tooLarge(op: Operation): Check {
  return {
    id: `${op.operationId}/errors/too-large`,
    operationId: op.operationId,
    family: 'errors',
    title: `a body over ${BODY_LIMIT / 1024 / 1024} MiB → 413 {error} (core: 4xx)`,
    stateful: true,
    async run(t) {
      const req = validRequest(t, op);
      const ex = await t.send({ ...req, json: undefined, raw: oversizedBody() });
      expectClientError(t, op, ex, 413, 'D9');
    },
  };
}

let oversized: Buffer | undefined;

/** A JSON object just over the limit, built once: building 20 MiB costs more than sending it. */
function oversizedBody(): Buffer {
  oversized ??= Buffer.concat([Buffer.from('{"prompt":"'), Buffer.alloc(BODY_LIMIT + 1024, 'x'), Buffer.from('"}')]);
  return oversized;
}
